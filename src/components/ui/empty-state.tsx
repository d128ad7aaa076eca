import Link from "next/link";
import type { ReactNode } from "react";

/** An empty list that says what fills it and links to where the next step is done. */
export function EmptyState({ children, href, action }: { children: ReactNode; href: string; action: string }) {
  return (
    <span className="inline-flex flex-col items-center gap-1">
      <span>{children}</span>
      <Link href={href} className="font-medium text-brand-700 hover:underline">
        {action}
      </Link>
    </span>
  );
}
