"use client";

import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { REVIEW_REASONS } from "@/lib/schemas/reward-rules";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";

type Review = RouterOutputs["reviews"]["list"]["items"][number];
type Decision = "approve" | "deny";

const URL_DEFAULTS = { page: "1", pageSize: "20" } as const;

function Party({ projectId, clientId, uniqueId }: { projectId: string; clientId: string | null; uniqueId: string | null }) {
  if (clientId === null || uniqueId === null) return <span className="text-zinc-500 italic">erased</span>;
  return <AppUserLink projectId={projectId} clientProvidedId={clientId} uniqueId={uniqueId} />;
}

/**
 * The review queue: rewards a campaign rule holds back, oldest first. Everyone can read it; owners and
 * members approve or deny, one at a time or the rows they select, each decision its own call.
 */
export function ReviewQueue({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const deciding = usePermission("reviews.decide");
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const page = positiveInt(url.page, 1);
  const pageSize = Number(oneOf(url.pageSize, PAGE_SIZES.map(String), "20"));
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [outcome, setOutcome] = useState<string | null>(null);
  const reviews = useQuery({ ...trpc.reviews.list.queryOptions({ projectId, page, pageSize }), placeholderData: keepPreviousData });
  const approve = useMutation(trpc.reviews.approve.mutationOptions());
  const deny = useMutation(trpc.reviews.deny.mutationOptions());

  const decide = useMutation({
    mutationFn: async ({ decision, ids }: { decision: Decision; ids: string[] }) => {
      const run = decision === "approve" ? approve.mutateAsync : deny.mutateAsync;
      const results = await Promise.allSettled(ids.map((trackingId) => run({ projectId, trackingId })));
      return { decision, done: results.filter((r) => r.status === "fulfilled").length, failed: results.filter((r) => r.status === "rejected").length };
    },
    onSuccess: async ({ decision, done, failed }) => {
      setSelected(new Set());
      const verb = decision === "approve" ? "Approved" : "Denied";
      setOutcome(`${verb} ${done} held reward${done === 1 ? "" : "s"}${failed ? `; ${failed} could not be decided (no longer in review)` : ""}.`);
      await queryClient.invalidateQueries({ queryKey: trpc.reviews.list.queryKey() });
      await queryClient.invalidateQueries({ queryKey: trpc.referrals.list.queryKey() });
    },
  });

  const items = reviews.data?.items ?? [];
  const allSelected = items.length > 0 && items.every((r) => selected.has(r.trackingId));
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  const columns: Column<Review>[] = [
    ...(deciding.allowed
      ? [
          {
            id: "select",
            header: "Select",
            cell: (r: Review) => (
              <input type="checkbox" aria-label={`Select the reward for ${r.refereeId ?? "an erased referee"}`} checked={selected.has(r.trackingId)} onChange={() => toggle(r.trackingId)} />
            ),
          },
        ]
      : []),
    { id: "referrer", header: "Referrer", cell: (r) => <Party projectId={projectId} clientId={r.referrerId} uniqueId={r.referrerUniqueId} /> },
    { id: "referee", header: "Referee", cell: (r) => <Party projectId={projectId} clientId={r.refereeId} uniqueId={r.refereeUniqueId} /> },
    { id: "event", header: "Event", cell: (r) => <code className="font-mono text-xs">{r.event}</code> },
    {
      id: "why",
      header: "Why held",
      cell: (r) => (
        <ul className="max-w-72 space-y-0.5">
          {r.reasons.map((reason) => (
            <li key={reason}>
              {REVIEW_REASONS[reason]} <code className="font-mono text-[11px] text-zinc-500">{reason}</code>
            </li>
          ))}
        </ul>
      ),
    },
    { id: "held", header: "Held", cell: (r) => <DateTime iso={r.heldAt} /> },
    { id: "until", header: "Hold ends", cell: (r) => (r.holdUntil ? <DateTime iso={r.holdUntil} /> : <span className="text-zinc-500">when decided</span>) },
    ...(deciding.allowed
      ? [
          {
            id: "decide",
            header: "Decide",
            cell: (r: Review) => (
              <span className="inline-flex gap-2">
                <Button size="sm" aria-label={`Approve the reward for ${r.refereeId ?? "an erased referee"}`} disabled={decide.isPending} onClick={() => decide.mutate({ decision: "approve", ids: [r.trackingId] })}>
                  Approve
                </Button>
                <Button size="sm" variant="secondary" aria-label={`Deny the reward for ${r.refereeId ?? "an erased referee"}`} disabled={decide.isPending} onClick={() => decide.mutate({ decision: "deny", ids: [r.trackingId] })}>
                  Deny
                </Button>
              </span>
            ),
          },
        ]
      : []),
  ];

  return (
    <Card
      title="Review queue"
      description="Rewards held back by the campaign's reward rules. Nothing is delivered until a reward is approved, or its hold ends; a denied reward fails."
    >
      {deciding.allowed ? (
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <label className="inline-flex items-center gap-2 text-sm text-zinc-700">
            <input
              type="checkbox"
              checked={allSelected}
              disabled={items.length === 0}
              onChange={() => setSelected(allSelected ? new Set() : new Set(items.map((r) => r.trackingId)))}
            />
            Select all on this page
          </label>
          <Button disabled={selected.size === 0} pending={decide.isPending} onClick={() => decide.mutate({ decision: "approve", ids: [...selected] })}>
            Approve selected ({selected.size})
          </Button>
          <Button variant="secondary" disabled={selected.size === 0} pending={decide.isPending} onClick={() => decide.mutate({ decision: "deny", ids: [...selected] })}>
            Deny selected ({selected.size})
          </Button>
        </div>
      ) : (
        <p className="mb-4 text-sm text-zinc-500">{deciding.reason}</p>
      )}
      {outcome && <StatusMessage>{outcome}</StatusMessage>}
      {decide.isError && <ErrorMessage>{toFormErrors(decide.error).message}</ErrorMessage>}
      {reviews.isError && <ErrorMessage>{toFormErrors(reviews.error).message}</ErrorMessage>}
      {reviews.isPending && !reviews.isError && <p className="text-sm text-zinc-500">Loading the review queue…</p>}
      {reviews.data && (
        <>
          <DataTable caption="Held rewards" columns={columns} rows={items} rowKey={(r) => r.trackingId} stale={reviews.isPlaceholderData} empty="No rewards are waiting for review." />
          <Pagination
            label="Held rewards"
            page={page}
            pageSize={pageSize}
            totalCount={reviews.data.totalCount}
            hasNextPage={reviews.data.hasNextPage}
            onPageChange={(next) => setUrl({ page: next })}
            onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
          />
        </>
      )}
    </Card>
  );
}
