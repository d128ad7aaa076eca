"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { FailureReason } from "@/components/referrals/referral-table";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { loadErrorMessage } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { ReviewDecisions } from "@/components/reviews/review-decisions";
import { DeliveryTable } from "./delivery-table";
import { deliveriesSearchPath } from "./paths";
import { RevokeCard } from "./revoke-card";

type RewardEvent = RouterOutputs["referrals"]["get"]["rewardEvents"][number];

const OUTCOME_TONES: Record<string, string> = { Claimed: "text-emerald-700", Rejected: "text-red-700", Recorded: "text-zinc-700" };

/** A referral's page: the tracking item, every reward event reported for it and what came of it, and its deliveries. */
export function ReferralDetail({ projectId, trackingId }: { projectId: string; trackingId: string }) {
  const trpc = useTRPC();
  const detail = useQuery({
    ...trpc.referrals.get.queryOptions({ projectId, trackingId }),
    refetchInterval: (query) => (query.state.data?.deliveries.some((d) => d.status === "Pending") ? 2000 : false),
  });
  const back = (
    <Link href={`/dashboard/projects/${projectId}/referrals`} className="text-sm text-zinc-500 hover:text-zinc-800">
      ← Referrals
    </Link>
  );
  if (detail.isPending) return <p className="text-sm text-zinc-500">Loading referral…</p>;
  if (detail.isError) {
    return (
      <div className="space-y-3">
        <ErrorMessage>{loadErrorMessage(detail.error, "referral")}</ErrorMessage>
        {back}
      </div>
    );
  }
  const { referral: r, rewardEvents, deliveries } = detail.data;
  return (
    <div className="space-y-6">
      <div>
        {back}
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h2 className="text-xl font-semibold text-zinc-900">
            Referral <code className="font-mono text-base">{r.referralTrackingId}</code>
          </h2>
          <CopyButton value={r.referralTrackingId} label={`tracking id ${r.referralTrackingId}`} />
          <StatusBadge status={r.status} />
        </div>
      </div>
      <Card title="Tracking item">
        <dl className="grid gap-1 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-zinc-500">Referrer</dt>
            <dd>
              {r.referrerId === null || r.referrerUniqueId === null ? (
                <span className="text-zinc-500 italic">erased</span>
              ) : (
                <AppUserLink projectId={projectId} clientProvidedId={r.referrerId} uniqueId={r.referrerUniqueId} />
              )}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Referee</dt>
            <dd>
              {r.refereeErased ? (
                <span className="text-zinc-500 italic">erased</span>
              ) : r.refereeId ? (
                <AppUserLink projectId={projectId} clientProvidedId={r.refereeId} uniqueId={r.refereeUniqueId ?? undefined} />
              ) : (
                "not known yet"
              )}
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Reward event</dt>
            <dd>{r.rewardEventName ?? "any"}</dd>
          </div>
          <div>
            <dt className="text-zinc-500">Failure reason</dt>
            <dd>
              <FailureReason reason={r.failureReason} />
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Tracked</dt>
            <dd>
              <DateTime iso={r.createdAt} seconds />
            </dd>
          </div>
          <div>
            <dt className="text-zinc-500">Reward claimed</dt>
            <dd>
              <DateTime iso={r.rewardClaimedAt} seconds />
            </dd>
          </div>
        </dl>
      </Card>
      <RevokeCard projectId={projectId} detail={detail.data} />
      <Card title="Reward events" description="Every reward event reported for this referral, oldest first, and what came of it.">
        <DataTable<RewardEvent>
          caption="Reward events"
          rows={rewardEvents}
          rowKey={(e) => e.id}
          empty="No reward event has been reported for this referral."
          columns={[
            { id: "at", header: "Reported", cell: (e) => <DateTime iso={e.at} seconds /> },
            { id: "event", header: "Event", cell: (e) => <code className="font-mono text-xs">{e.eventName ?? "—"}</code> },
            { id: "env", header: "Environment", cell: (e) => e.environment ?? "—" },
            { id: "outcome", header: "Outcome", cell: (e) => <span className={`font-medium ${OUTCOME_TONES[e.outcome] ?? ""}`}>{e.outcome}</span> },
            { id: "reason", header: "Reason", cell: (e) => <FailureReason reason={e.reason} /> },
          ]}
        />
      </Card>
      <Card
        title="Deliveries"
        description="What the webhooks were sent for this referral's reward."
        actions={
          <Link href={deliveriesSearchPath(projectId, { q: r.referralTrackingId })} className="text-sm text-brand-700 hover:underline">
            In the search
          </Link>
        }
      >
        <DeliveryTable projectId={projectId} caption="Deliveries of this referral" deliveries={deliveries} hide={["referral", "parties"]} empty="No delivery: no reward was granted, or no webhook was enabled." />
      </Card>
      <ReviewDecisions projectId={projectId} trackingId={r.referralTrackingId} />
    </div>
  );
}
