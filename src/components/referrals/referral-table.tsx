import Link from "next/link";
import type { ReactNode } from "react";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { referralPath } from "@/components/deliveries/paths";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { rewardReasonText } from "@/lib/schemas/referrals";
import type { RouterOutputs } from "@/lib/trpc-types";

export type Referral = RouterOutputs["referrals"]["list"]["items"][number];
export const REFERRAL_STATUSES = ["Pending", "Completed", "Failed"] as const;
export type ReferralStatus = (typeof REFERRAL_STATUSES)[number];

export function FailureReason({ reason }: { reason: string | null }) {
  if (!reason) return <span className="text-zinc-500">—</span>;
  return (
    <span className="block max-w-64">
      <span className="text-zinc-800">{rewardReasonText(reason)}</span>
      <code className="mt-0.5 block font-mono text-[11px] text-zinc-500">{reason}</code>
    </span>
  );
}

/** A party erased at their request: nothing that named them is kept. */
function Erased() {
  return (
    <span className="text-zinc-500 italic" title="This app user was erased; the referral keeps its status">
      erased
    </span>
  );
}

function columns(projectId: string, hide: readonly string[]): Column<Referral>[] {
  const all: Column<Referral>[] = [
    {
      id: "tracking",
      header: "Tracking id",
      cell: (r) => (
        <Link href={referralPath(projectId, r.referralTrackingId)} className="font-mono text-xs text-brand-700 hover:underline" title={r.referralTrackingId}>
          {r.referralTrackingId.slice(0, 8)}…
        </Link>
      ),
    },
    {
      id: "referrer",
      header: "Referrer",
      cell: (r) =>
        r.referrerId === null || r.referrerUniqueId === null ? <Erased /> : <AppUserLink projectId={projectId} clientProvidedId={r.referrerId} uniqueId={r.referrerUniqueId} />,
    },
    {
      id: "referee",
      header: "Referee",
      cell: (r) =>
        r.refereeErased ? (
          <Erased />
        ) : r.refereeId === null ? (
          <span className="text-zinc-500" title="Tracked by the client library before the visitor signed in">
            not known yet
          </span>
        ) : (
          <AppUserLink projectId={projectId} clientProvidedId={r.refereeId} uniqueId={r.refereeUniqueId ?? undefined} />
        ),
    },
    { id: "code", header: "Code", cell: (r) => <code className="font-mono text-xs">{r.referralCode}</code> },
    { id: "event", header: "Reward event", cell: (r) => r.rewardEventName ?? <span className="text-zinc-500">any</span> },
    { id: "status", header: "Status", cell: (r) => <StatusBadge status={r.status} /> },
    { id: "reason", header: "Failure reason", cell: (r) => <FailureReason reason={r.failureReason} /> },
    { id: "created", header: "Created", cell: (r) => <DateTime iso={r.createdAt} /> },
    { id: "claimed", header: "Reward claimed", cell: (r) => <DateTime iso={r.rewardClaimedAt} /> },
  ];
  return all.filter((c) => !hide.includes(c.id));
}

type ReferralTableProps = {
  projectId: string;
  caption: string;
  referrals: readonly Referral[];
  /** Column ids to leave out, e.g. "referrer" on the referrer's own page. */
  hide?: readonly ("referrer" | "referee")[];
  stale?: boolean;
  empty: ReactNode;
};

export function ReferralTable({ projectId, caption, referrals, hide = [], stale, empty }: ReferralTableProps) {
  return (
    <DataTable
      caption={caption}
      columns={columns(projectId, hide)}
      rows={referrals}
      rowKey={(r) => r.referralTrackingId}
      stale={stale}
      empty={empty}
    />
  );
}
