"use client";

import { useState, type ReactNode } from "react";
import { Button, type ButtonVariant } from "./button";

type ConfirmButtonProps = {
  /** The first button, e.g. "Rotate secret". */
  children: ReactNode;
  /** The question shown after the first click. */
  question: ReactNode;
  confirmLabel: string;
  onConfirm: () => void;
  pending?: boolean;
  variant?: ButtonVariant;
  size?: "sm" | "md";
  "aria-label"?: string;
};

/** A destructive action that asks once, inline, before it runs. */
export function ConfirmButton({ children, question, confirmLabel, onConfirm, pending, variant = "secondary", size = "md", ...rest }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  if (!asking) {
    return (
      <Button variant={variant} size={size} onClick={() => setAsking(true)} pending={pending} aria-label={rest["aria-label"]}>
        {children}
      </Button>
    );
  }
  return (
    <span className="inline-flex flex-wrap items-center gap-2">
      <span className="text-sm text-zinc-700">{question}</span>
      <Button
        variant="danger"
        size={size}
        pending={pending}
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        {confirmLabel}
      </Button>
      <Button variant="ghost" size={size} onClick={() => setAsking(false)}>
        Cancel
      </Button>
    </span>
  );
}
