"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

export type ProjectTab = { label: string; /** Path below the project, "" for the overview. */ segment: string };

export function ProjectTabs({ projectId, tabs }: { projectId: string; tabs: readonly ProjectTab[] }) {
  const pathname = usePathname();
  const base = `/dashboard/projects/${projectId}`;
  return (
    <nav aria-label="Project sections" className="mb-6 border-b border-zinc-200">
      <ul className="-mb-px flex gap-6 overflow-x-auto">
        {tabs.map((tab) => {
          const href = tab.segment ? `${base}/${tab.segment}` : base;
          const active = tab.segment ? pathname.startsWith(href) : pathname === base;
          return (
            <li key={tab.segment}>
              <Link
                href={href}
                aria-current={active ? "page" : undefined}
                className={`inline-block border-b-2 px-0.5 pb-2.5 text-sm font-medium ${
                  active ? "border-brand-600 text-brand-700" : "border-transparent text-zinc-600 hover:border-zinc-300 hover:text-zinc-900"
                }`}
              >
                {tab.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
