import { AppUserLink } from "@/components/app-users/app-user-link";
import type { ProjectOverview } from "@/lib/schemas/overview";
import { count } from "./format";

/** The referrers with the most rewards claimed in the range, each linking to their page. */
export function TopReferrers({ projectId, referrers }: { projectId: string; referrers: ProjectOverview["topReferrers"] }) {
  if (!referrers.length) return <p className="text-sm text-zinc-500">No rewards claimed in this range yet.</p>;
  return (
    <ol aria-label="Top referrers" className="divide-y divide-zinc-100 text-sm">
      {referrers.map((r, i) => (
        <li key={r.uniqueId} className="flex items-center justify-between gap-3 py-1.5">
          <span className="flex min-w-0 items-center gap-2">
            <span className="w-5 text-right text-xs text-zinc-500 tabular-nums">{i + 1}</span>
            <AppUserLink projectId={projectId} clientProvidedId={r.clientProvidedId} uniqueId={r.uniqueId} />
          </span>
          <span className="tabular-nums text-zinc-700">
            {count(r.rewards)} {r.rewards === 1 ? "reward" : "rewards"}
          </span>
        </li>
      ))}
    </ol>
  );
}
