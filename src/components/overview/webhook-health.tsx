import Link from "next/link";
import type { ProjectOverview } from "@/lib/schemas/overview";
import { count, rate } from "./format";

/** Success rate and response times of the range's attempts, and what waits now. */
export function WebhookHealth({ projectId, health }: { projectId: string; health: ProjectOverview["webhookHealth"] }) {
  const figures = [
    { label: "Success rate", value: health.attempts ? rate(health.succeeded, health.attempts) : "—", hint: `${count(health.attempts)} attempts` },
    { label: "p50 response", value: health.p50Ms === null ? "—" : `${count(health.p50Ms)} ms` },
    { label: "p95 response", value: health.p95Ms === null ? "—" : `${count(health.p95Ms)} ms` },
    { label: "Waiting for a retry", value: count(health.retrying) },
    { label: "Failed, not retried", value: count(health.failedWaiting) },
    { label: "Webhooks switched off", value: count(health.disabledWebhooks) },
  ];
  return (
    <div>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-3">
        {figures.map((f) => (
          <div key={f.label} className="rounded-md bg-zinc-50 px-3 py-2">
            <dt className="text-xs text-zinc-500">{f.label}</dt>
            <dd className="text-lg font-semibold tabular-nums text-zinc-900">{f.value}</dd>
            {f.hint && <dd className="text-xs text-zinc-500">{f.hint}</dd>}
          </div>
        ))}
      </dl>
      {health.failedWaiting > 0 && (
        <p className="mt-3 text-sm">
          <Link href={`/dashboard/projects/${projectId}/webhooks`} className="font-medium text-brand-700 hover:underline">
            See the failed deliveries
          </Link>
        </p>
      )}
    </div>
  );
}
