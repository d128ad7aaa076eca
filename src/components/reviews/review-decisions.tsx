"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { referralPath } from "@/components/deliveries/paths";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { Pagination } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { rewardReasonText } from "@/lib/schemas/referrals";
import { REVIEW_REASONS } from "@/lib/schemas/reward-rules";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";

type ReviewDecision = RouterOutputs["reviews"]["decisions"]["items"][number];

/** What came of a decision, in words. */
export function decisionOutcome(d: Pick<ReviewDecision, "status" | "failureReason">): string {
  if (d.status === "Completed") return "Granted";
  if (d.failureReason === "denied_in_review") return "Denied";
  return d.failureReason ? `Failed: ${rewardReasonText(d.failureReason)}` : d.status;
}

/**
 * The review queue's history: every decision, newest first, with who made it, the reason they gave
 * and what came of it; `trackingId` keeps one referral's (its page shows them). Exported as CSV.
 */
export function ReviewDecisions({ projectId, trackingId }: { projectId: string; trackingId?: string }) {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(10);
  const decisions = useQuery({
    ...trpc.reviews.decisions.queryOptions({ projectId, page, pageSize, ...(trackingId ? { trackingId } : {}) }),
    placeholderData: keepPreviousData,
  });
  const columns: Column<ReviewDecision>[] = [
    { id: "when", header: "Decided", cell: (d) => <DateTime iso={d.decidedAt} /> },
    ...(trackingId
      ? []
      : [
          {
            id: "referral",
            header: "Referral",
            cell: (d: ReviewDecision) => (
              <Link href={referralPath(projectId, d.trackingId)} className="font-mono text-xs text-brand-700 hover:underline" aria-label={`Referral ${d.trackingId}`}>
                {d.trackingId.slice(0, 8)}…
              </Link>
            ),
          },
        ]),
    { id: "decision", header: "Decision", cell: (d) => <Badge tone={d.decision === "approve" ? "green" : "red"}>{d.decision === "approve" ? "Approved" : "Denied"}</Badge> },
    { id: "by", header: "By", cell: (d) => (d.decidedBy ? <span className="[overflow-wrap:anywhere]">{d.decidedBy}</span> : <span className="text-zinc-500">The hold ended</span>) },
    { id: "note", header: "Reason given", cell: (d) => (d.note ? <span className="block max-w-72 [overflow-wrap:anywhere]">{d.note}</span> : <span className="text-zinc-500">—</span>) },
    { id: "held", header: "Held for", cell: (d) => <span className="block max-w-56 text-xs text-zinc-600">{d.heldFor.map((r) => REVIEW_REASONS[r]).join("; ")}</span> },
    { id: "outcome", header: "Outcome", cell: (d) => <span className="block max-w-64">{decisionOutcome(d)}</span> },
  ];
  return (
    <Card
      title={trackingId ? "Review decisions" : "Decisions"}
      description={trackingId ? undefined : "Every decision on a held reward, newest first: who decided, the reason they gave and what came of it."}
      actions={trackingId ? undefined : <ExportButton label="Export CSV" url={exportUrl(projectId, "review-decisions")} />}
    >
      {decisions.isError && <ErrorMessage>{toFormErrors(decisions.error).message}</ErrorMessage>}
      {decisions.data && (
        <>
          <DataTable
            caption="Review decisions"
            columns={columns}
            rows={decisions.data.items}
            rowKey={(d) => d.id}
            stale={decisions.isPlaceholderData}
            empty={trackingId ? "This referral was never decided in review." : "No decision yet."}
          />
          <Pagination
            label="Review decisions"
            page={page}
            pageSize={pageSize}
            totalCount={decisions.data.totalCount}
            hasNextPage={decisions.data.hasNextPage}
            onPageChange={setPage}
            onPageSizeChange={(size) => {
              setPageSize(size);
              setPage(1);
            }}
          />
        </>
      )}
    </Card>
  );
}
