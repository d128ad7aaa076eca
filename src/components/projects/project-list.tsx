"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { toFormErrors } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";

export function ProjectList() {
  const trpc = useTRPC();
  const projects = useQuery(trpc.projects.list.queryOptions());
  // The last 30 days' tracked and completed referrals of every project (the server's default range).
  const figures = useQuery(trpc.stats.organizationOverview.queryOptions({}));
  const totalsOf = (projectId: string) => figures.data?.projects.find((p) => p.projectId === projectId)?.totals;
  if (projects.isPending) return <p className="text-sm text-zinc-500">Loading projects…</p>;
  if (projects.isError) return <ErrorMessage>{toFormErrors(projects.error).message}</ErrorMessage>;
  if (!projects.data.length) {
    return (
      <p className="text-sm text-zinc-500">
        No projects yet.{" "}
        <a href="#create-project" className="font-medium text-brand-700 hover:underline">
          Create your first one below
        </a>
        : one per web or mobile app.
      </p>
    );
  }
  return (
    <div className="relative overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Projects</caption>
        <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
          <tr>
            <th scope="col" className="py-2 pr-4 font-medium">Name</th>
            <th scope="col" className="py-2 pr-4 font-medium">App type</th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Tracked <span className="normal-case">(30 days)</span>
            </th>
            <th scope="col" className="py-2 pr-4 text-right font-medium">
              Completed <span className="normal-case">(30 days)</span>
            </th>
            <th scope="col" className="py-2 font-medium">Created</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {projects.data.map((p) => (
            <tr key={p.uniqueId} className="hover:bg-zinc-50">
              <td className="py-2.5 pr-4">
                <Link href={`/dashboard/projects/${p.uniqueId}`} className="font-medium text-brand-700 hover:underline">
                  {p.name}
                </Link>
                {p.description && <p className="max-w-md truncate text-xs text-zinc-500">{p.description}</p>}
              </td>
              <td className="py-2.5 pr-4">
                <Badge tone={p.appType === "Mobile" ? "violet" : "blue"}>{p.appType}</Badge>
              </td>
              <td className="py-2.5 pr-4 text-right tabular-nums">{totalsOf(p.uniqueId)?.tracked.toLocaleString("en-GB") ?? "…"}</td>
              <td className="py-2.5 pr-4 text-right tabular-nums">{totalsOf(p.uniqueId)?.completed.toLocaleString("en-GB") ?? "…"}</td>
              <td className="py-2.5 whitespace-nowrap text-zinc-600">{formatDateTime(p.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
