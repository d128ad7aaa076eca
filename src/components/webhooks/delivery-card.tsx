"use client";

import Link from "next/link";
import { deliveryPath } from "@/components/deliveries/paths";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { CopyButton } from "@/components/ui/copy-button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { StatusBadge } from "@/components/ui/status-badge";
import { formatDateTime } from "@/lib/format";
import type { DeliveryGroup } from "./group-deliveries";
import type { DeliveryLog } from "./types";
import type { RetryProgress } from "./use-retry-tracker";

/** The failure reason, and the receiver's answer behind a toggle (it can be a whole HTML page). */
function Details({ log }: { log: DeliveryLog }) {
  if (!log.error && !log.responseExcerpt) return <span className="text-zinc-500">—</span>;
  return (
    <div className="max-w-72 space-y-1 text-xs">
      {log.error && <p className="line-clamp-3 break-words text-red-800" title={log.error}>{log.error}</p>}
      {log.responseExcerpt && (
        <details>
          <summary className="cursor-pointer text-zinc-600 hover:text-zinc-900">Response body</summary>
          <pre tabIndex={0} className="mt-1 max-h-48 overflow-auto rounded bg-zinc-100 p-2 font-mono text-[11px] whitespace-pre-wrap break-all text-zinc-800">
            {log.responseExcerpt}
          </pre>
        </details>
      )}
    </div>
  );
}

function ProgressLine({ progress }: { progress: RetryProgress | undefined }) {
  if (!progress) return null;
  switch (progress.phase) {
    case "sending":
      return <Pending>Queueing the retry…</Pending>;
    case "waiting":
      return <Pending>Retry queued: waiting for the new attempt…</Pending>;
    case "slow":
      return (
        <p role="status" className="text-sm text-amber-800">
          No new attempt logged yet: the delivery is queued. Refresh later.
        </p>
      );
    case "error":
      return (
        <p role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
          Retry refused: {progress.message}
        </p>
      );
    case "done": {
      const { attempt } = progress;
      const status = attempt.httpStatus === null ? "no response" : `HTTP ${attempt.httpStatus}`;
      return attempt.success ? (
        <p role="status" className="text-sm font-medium text-emerald-700">
          Retry succeeded: attempt {attempt.attemptNumber} got {status} in {attempt.responseTimeMs} ms.
        </p>
      ) : (
        <p role="status" className="text-sm font-medium text-red-700">
          Retry failed: attempt {attempt.attemptNumber} got {status}
          {attempt.error ? ` (${attempt.error})` : ""}.
          {attempt.deliveryStatus === "Pending" ? " Automatic retries continue." : ""}
        </p>
      );
    }
  }
}

function Pending({ children }: { children: string }) {
  return (
    <p role="status" className="flex items-center gap-2 text-sm text-zinc-700">
      <span aria-hidden className="size-3.5 animate-spin rounded-full border-2 border-brand-600 border-t-transparent" />
      {children}
    </p>
  );
}

type DeliveryCardProps = {
  projectId: string;
  group: DeliveryGroup;
  progress: RetryProgress | undefined;
  onRetry: (entry: DeliveryLog) => void;
};

/** One delivery: its state, its one Retry when the server would accept it, and each loaded attempt. */
export function DeliveryCard({ projectId, group, progress, onRetry }: DeliveryCardProps) {
  const busy = progress?.phase === "sending" || progress?.phase === "waiting";
  const columns: Column<DeliveryLog>[] = [
    { id: "attempt", header: "Attempt", align: "right", cell: (l) => `#${l.attemptNumber}` },
    { id: "time", header: "Time", cell: (l) => <DateTime iso={l.timestamp} seconds /> },
    { id: "event", header: "Event", cell: (l) => <code className="font-mono text-xs">{l.eventType}</code> },
    { id: "http", header: "HTTP status", align: "right", cell: (l) => l.httpStatus ?? <span className="text-zinc-500">none</span> },
    { id: "ms", header: "Response time", align: "right", className: "whitespace-nowrap", cell: (l) => `${l.responseTimeMs.toLocaleString("en-GB")} ms` },
    { id: "result", header: "Result", cell: (l) => (l.success ? <Badge tone="green">Success</Badge> : <Badge tone="red">Failed</Badge>) },
    { id: "details", header: "Error / response", cell: (l) => <Details log={l} /> },
  ];
  // A retry acts on the whole delivery: one button, on its latest retryable entry.
  const retryable = [...group.attempts].sort((a, b) => b.attemptNumber - a.attemptNumber).find((l) => l.retryable);
  const headingId = `delivery-${group.deliveryId}`;
  return (
    <section
      aria-labelledby={headingId}
      className={`rounded-lg border bg-white shadow-sm ${group.needsAttention ? "border-red-200" : "border-zinc-200"}`}
    >
      <header className="flex flex-wrap items-center gap-x-3 gap-y-2 border-b border-zinc-100 px-4 py-3">
        <StatusBadge status={group.status} />
        <h3 id={headingId} className="text-sm font-semibold text-zinc-900">
          Delivery <code className="font-mono text-xs font-normal">{group.deliveryId}</code>
        </h3>
        <CopyButton value={group.deliveryId} label={`delivery id ${group.deliveryId}`} />
        <Link href={deliveryPath(projectId, group.deliveryId)} className="text-sm text-brand-700 hover:underline">
          Details
        </Link>
        <span className="text-sm text-zinc-600">
          <code className="font-mono text-xs">{group.eventType}</code> · {group.attempts.length} attempt{group.attempts.length === 1 ? "" : "s"} shown · last{" "}
          {formatDateTime(group.latest.timestamp)}
        </span>
        {retryable && (
          <Button size="sm" variant="secondary" disabled={busy} aria-label={`Retry delivery ${group.deliveryId}`} onClick={() => onRetry(retryable)}>
            Retry
          </Button>
        )}
      </header>
      <div className="space-y-3 px-4 py-3">
        <ProgressLine progress={progress} />
        <DataTable caption={`Attempts of delivery ${group.deliveryId}`} columns={columns} rows={group.attempts} rowKey={(l) => l.id} />
      </div>
    </section>
  );
}
