"use client";

import Link from "next/link";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { Badge } from "@/components/ui/badge";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { deliveriesPath } from "@/components/webhooks/types";
import { deliveryPath, referralPath } from "./paths";
import { RetryDeliveryButton } from "./retry-delivery-button";
import type { Delivery } from "./types";

/** Why a delivery failed, in two words. */
export const FAILURE_LABELS: Record<string, string> = { dead_lettered: "Dead-lettered", exhausted: "Exhausted" };

export function DeliveryState({ delivery }: { delivery: Delivery }) {
  return (
    <span className="flex flex-wrap items-center gap-1">
      <StatusBadge status={delivery.status} />
      {delivery.failure && <Badge tone="red">{FAILURE_LABELS[delivery.failure] ?? delivery.failure}</Badge>}
      {delivery.test && <Badge tone="violet">Test</Badge>}
    </span>
  );
}

function columns(projectId: string, hide: readonly string[]): Column<Delivery>[] {
  const all: Column<Delivery>[] = [
    {
      id: "delivery",
      header: "Delivery",
      cell: (d) => (
        <Link href={deliveryPath(projectId, d.deliveryId)} className="font-mono text-xs text-brand-700 hover:underline" aria-label={`Delivery ${d.deliveryId}`}>
          {d.deliveryId.slice(0, 8)}…
        </Link>
      ),
    },
    { id: "state", header: "Status", cell: (d) => <DeliveryState delivery={d} /> },
    { id: "event", header: "Event", cell: (d) => <code className="font-mono text-xs">{d.event}</code> },
    {
      id: "referral",
      header: "Referral",
      cell: (d) =>
        d.trackingId ? (
          <Link href={referralPath(projectId, d.trackingId)} className="font-mono text-xs text-brand-700 hover:underline">
            {d.trackingId.slice(0, 8)}…
          </Link>
        ) : (
          <span className="text-zinc-500">—</span>
        ),
    },
    {
      id: "parties",
      header: "Referrer → referee",
      cell: (d) =>
        d.referrerId ? (
          <span className="flex flex-wrap gap-1">
            <AppUserLink projectId={projectId} clientProvidedId={d.referrerId} uniqueId={d.referrerUniqueId ?? undefined} />
            <span aria-hidden>→</span>
            {d.refereeId ? <AppUserLink projectId={projectId} clientProvidedId={d.refereeId} uniqueId={d.refereeUniqueId ?? undefined} /> : "—"}
          </span>
        ) : (
          <span className="text-zinc-500">—</span>
        ),
    },
    {
      id: "webhook",
      header: "Webhook",
      cell: (d) => (
        <Link href={deliveriesPath(projectId, d.webhookId)} className="text-brand-700 hover:underline">
          {d.webhookName}
        </Link>
      ),
    },
    // One column for the attempts (count, last answer, last and next time), so the row and its Retry
    // fit a 1440 px screen's content box without scrolling sideways.
    {
      id: "attempts",
      header: "Attempts",
      cell: (d) => (
        <span className="block min-w-40 text-xs text-zinc-600">
          <span className="text-sm text-zinc-900 tabular-nums">{d.attempts}</span>
          {" · "}
          {d.lastHttpStatus ? <span className="tabular-nums">HTTP {d.lastHttpStatus}</span> : <span className="text-zinc-500">no answer</span>}
          <span className="block">
            Last <DateTime iso={d.lastAttemptAt} seconds inline empty="none yet" />
          </span>
          {d.nextAttemptAt && d.status === "Pending" && (
            <span className="block">
              Next <DateTime iso={d.nextAttemptAt} seconds inline />
            </span>
          )}
        </span>
      ),
    },
    { id: "retry", header: "Retry", cell: (d) => <RetryDeliveryButton projectId={projectId} delivery={d} size="sm" /> },
  ];
  return all.filter((c) => !hide.includes(c.id));
}

type DeliveryTableProps = { projectId: string; caption: string; deliveries: readonly Delivery[]; hide?: readonly string[]; stale?: boolean; empty: string };

/** Deliveries across webhooks, each with its state, its referral and parties, and its one Retry. */
export function DeliveryTable({ projectId, caption, deliveries, hide = [], stale, empty }: DeliveryTableProps) {
  return <DataTable caption={caption} columns={columns(projectId, hide)} rows={deliveries} rowKey={(d) => d.deliveryId} stale={stale} empty={empty} />;
}
