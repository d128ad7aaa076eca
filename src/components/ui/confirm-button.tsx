"use client";

import { useId, useState, type ReactNode } from "react";
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
  /** Why the action is not available to this user: the button is disabled and the reason shown beside it. */
  disabledReason?: string | null;
};

/** A destructive action that asks once, inline, before it runs. */
export function ConfirmButton({ children, question, confirmLabel, onConfirm, pending, variant = "secondary", size = "md", disabledReason, ...rest }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const reasonId = useId();
  if (disabledReason) {
    return (
      <span className="inline-flex flex-wrap items-center gap-2">
        <Button variant={variant} size={size} disabled aria-label={rest["aria-label"]} aria-describedby={reasonId}>
          {children}
        </Button>
        <span id={reasonId} className="text-sm text-zinc-500">
          {disabledReason}
        </span>
      </span>
    );
  }
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
