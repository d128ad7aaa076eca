"use client";

import { projectPath } from "@/components/projects/paths";
import { EmptyState } from "@/components/ui/empty-state";
import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { appUserPath } from "@/components/app-users/paths";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { ActivityTypeBadge } from "./activity-type-badge";

type Activity = RouterOutputs["activity"]["list"]["items"][number];

const URL_DEFAULTS = { page: "1", pageSize: "20" } as const;

function columns(projectId: string): Column<Activity>[] {
  return [
    { id: "time", header: "Time", cell: (a) => <DateTime iso={a.createdAt} seconds /> },
    { id: "type", header: "Type", cell: (a) => <ActivityTypeBadge type={a.type} /> },
    { id: "description", header: "Description", className: "text-zinc-800", cell: (a) => a.description },
    {
      id: "user",
      header: "App user",
      cell: (a) =>
        a.appUserId ? (
          <Link href={appUserPath(projectId, a.appUserId)} className="whitespace-nowrap font-medium text-brand-700 hover:underline">
            View user
          </Link>
        ) : (
          <span className="text-zinc-500">—</span>
        ),
    },
  ];
}

export function ActivityFeed({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const page = positiveInt(url.page, 1);
  const pageSize = Number(oneOf(url.pageSize, PAGE_SIZES.map(String), "20"));
  const feed = useQuery({ ...trpc.activity.list.queryOptions({ projectId, page, pageSize }), placeholderData: keepPreviousData });
  return (
    <Card title="Activity" description="What happened in this project, newest first.">
      {feed.isError && <ErrorMessage>{toFormErrors(feed.error).message}</ErrorMessage>}
      {feed.isPending && !feed.isError && <p className="text-sm text-zinc-500">Loading activity…</p>}
      {feed.data && (
        <>
          <DataTable
            caption="Activity"
            columns={columns(projectId)}
            rows={feed.data.items}
            rowKey={(a) => a.id}
            stale={feed.isPlaceholderData}
            empty={
              <EmptyState href={projectPath(projectId, "campaign")} action="Start with the set-up on the Campaign page">
                No activity yet. New app users, referrals and rewards show up here as they happen.
              </EmptyState>
            }
          />
          <Pagination
            label="Activity"
            page={page}
            pageSize={pageSize}
            totalCount={feed.data.totalCount}
            hasNextPage={page * pageSize < feed.data.totalCount}
            onPageChange={(next) => setUrl({ page: next })}
            onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
          />
        </>
      )}
    </Card>
  );
}
