"use client";

import { useState, type ReactNode } from "react";

type DisclosureProps = { summary: ReactNode; defaultOpen?: boolean; className?: string; summaryClassName?: string; children: ReactNode };

/**
 * A `<details>` whose content is rendered only once it is opened. The reference collapses every
 * response schema and every nested field list: rendered closed, they made four fifths of a page of
 * 55,000 elements that took seconds to show.
 */
export function Disclosure({ summary, defaultOpen = false, className, summaryClassName, children }: DisclosureProps) {
  const [opened, setOpened] = useState(defaultOpen);
  return (
    <details className={className} open={defaultOpen} onToggle={(event) => event.currentTarget.open && setOpened(true)}>
      <summary className={summaryClassName}>{summary}</summary>
      {opened && children}
    </details>
  );
}
