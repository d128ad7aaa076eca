"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { projectPath } from "@/components/projects/paths";

/**
 * The Activity tab's two views: everything that happened, and the reward events reported (what
 * support reads when a reward did not arrive). A second tab row would crowd the project's tabs on a
 * phone; these are two links under the one Activity tab.
 */
export function ActivityViews({ projectId }: { projectId: string }) {
  const pathname = usePathname();
  const views = [
    { label: "All activity", href: projectPath(projectId, "activity") },
    { label: "Reward events", href: projectPath(projectId, "rewardEvents") },
  ];
  return (
    <nav aria-label="Activity views" className="mb-4 flex gap-2">
      {views.map((view) => {
        const active = pathname === view.href;
        return (
          <Link
            key={view.href}
            href={view.href}
            aria-current={active ? "page" : undefined}
            className={`rounded-md px-3 py-1.5 text-sm font-medium ${active ? "bg-brand-600 text-on-accent" : "text-zinc-700 hover:bg-zinc-100"}`}
          >
            {view.label}
          </Link>
        );
      })}
    </nav>
  );
}
