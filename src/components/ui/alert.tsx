import type { ReactNode } from "react";

/** A failure the user must read; announced by screen readers. */
export function ErrorMessage({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
      {children}
    </div>
  );
}

/** A quiet confirmation such as "Saved". */
export function StatusMessage({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="text-sm text-emerald-700">
      {children}
    </p>
  );
}
