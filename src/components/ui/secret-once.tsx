"use client";

import { useEffect, useRef, type ReactNode } from "react";
import { Button } from "./button";
import { CopyButton } from "./copy-button";

type SecretOnceProps = {
  /** What the secret is, e.g. "Project secret" or "API key"; names the field and the copy button. */
  label: string;
  secret: string;
  /** The server's warning that this is the only time the secret is shown. */
  warning: string;
  onDismiss?: () => void;
  children?: ReactNode;
};

/** A freshly issued secret, shown once with the server's warning and a copy button. */
export function SecretOnce({ label, secret, warning, onDismiss, children }: SecretOnceProps) {
  const inputId = `secret-${label.toLowerCase().replace(/\W+/g, "-")}`;
  const inputRef = useRef<HTMLInputElement>(null);
  // The panel often appears away from the button that produced it; bring it into view once.
  useEffect(() => inputRef.current?.focus(), [secret]);
  return (
    <section aria-labelledby={`${inputId}-title`} className="rounded-lg border border-amber-300 bg-amber-50 p-4 shadow-sm">
      <h3 id={`${inputId}-title`} className="text-sm font-semibold text-amber-900">
        New {/^[A-Z][a-z]/.test(label) ? label[0]?.toLowerCase() + label.slice(1) : label}
      </h3>
      <p className="mt-1 text-sm text-amber-900">{warning}</p>
      <div className="mt-3 flex items-center gap-2">
        <label htmlFor={inputId} className="sr-only">
          {label}
        </label>
        <input
          id={inputId}
          ref={inputRef}
          readOnly
          value={secret}
          onFocus={(e) => e.currentTarget.select()}
          className="block w-full min-w-0 rounded-md border border-amber-300 bg-white px-3 py-2 font-mono text-sm text-zinc-900"
        />
        <CopyButton value={secret} label={label} size="md" />
      </div>
      {(children || onDismiss) && (
        <div className="mt-3 flex flex-wrap items-center gap-3">
          {children}
          {onDismiss && (
            <Button variant="ghost" size="sm" onClick={onDismiss}>
              I have stored it
            </Button>
          )}
        </div>
      )}
    </section>
  );
}
