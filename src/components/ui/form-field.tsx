import { useId, type ReactNode } from "react";
import { fieldMessage } from "@/lib/errors";

export const inputClasses =
  "block w-full rounded-md border border-zinc-300 bg-white px-3 py-2 text-sm text-zinc-900 shadow-sm placeholder:text-zinc-400 focus:border-brand-500 focus:outline-2 focus:outline-brand-500/30 disabled:bg-zinc-50 disabled:text-zinc-500 aria-invalid:border-red-500 aria-invalid:focus:outline-red-500/30";

/** Props to spread on the control so it is labelled, described and marked invalid. */
export type ControlProps = {
  id: string;
  "aria-invalid"?: true;
  "aria-describedby"?: string;
};

type FormFieldProps = {
  label: string;
  /** The server's message for this field, if any. */
  error?: string | undefined;
  hint?: ReactNode;
  optional?: boolean;
  className?: string;
  children: (control: ControlProps) => ReactNode;
};

/** A labelled control with an optional hint and the field's error below it. */
export function FormField({ label, error, hint, optional, className = "", children }: FormFieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = [hint ? hintId : null, error ? errorId : null].filter(Boolean).join(" ");
  return (
    <div className={`space-y-1.5 ${className}`}>
      <label htmlFor={id} className="block text-sm font-medium text-zinc-800">
        {label}
        {optional && <span className="ml-1 font-normal text-zinc-500">(optional)</span>}
      </label>
      {children({ id, ...(error ? { "aria-invalid": true } : {}), ...(describedBy ? { "aria-describedby": describedBy } : {}) })}
      {hint && (
        <p id={hintId} className="text-xs text-zinc-500">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm text-red-700">
          {fieldMessage(label, error)}
        </p>
      )}
    </div>
  );
}
