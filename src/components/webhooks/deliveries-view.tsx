"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { useEffect, useMemo } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { loadErrorMessage } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { oneOf, useUrlState } from "@/lib/use-url-state";
import { DeliveryCard } from "./delivery-card";
import { groupDeliveries } from "./group-deliveries";
import { webhooksPath } from "./types";
import { useRetryTracker } from "./use-retry-tracker";
import { WebhookHealthCard } from "./webhook-health-card";
import { deliveriesSearchPath } from "@/components/deliveries/paths";

const LIMITS = ["20", "50", "100", "200", "500"] as const;
const URL_DEFAULTS = { limit: "100" } as const;

function WebhookSummary({ projectId, webhookId }: { projectId: string; webhookId: string }) {
  const trpc = useTRPC();
  const webhook = useQuery(trpc.webhooks.get.queryOptions({ projectId, webhookId }));
  if (!webhook.data) return <h2 className="text-xl font-semibold text-zinc-900">Deliveries</h2>;
  const w = webhook.data;
  return (
    <div>
      <div className="flex flex-wrap items-center gap-3">
        <h2 className="text-xl font-semibold text-zinc-900">Deliveries: {w.name}</h2>
        <Badge tone={w.enabled ? "green" : "neutral"}>{w.enabled ? "Enabled" : "Disabled"}</Badge>
        <Badge tone="blue">{w.environment}</Badge>
      </div>
      <code className="mt-1 block font-mono text-xs break-all text-zinc-600">{w.url}</code>
      {!w.enabled && <p className="mt-2 text-sm text-amber-800">This webhook is disabled: it receives nothing, and retries are refused until it is enabled.</p>}
      <div className="mt-4">
        <WebhookHealthCard projectId={projectId} webhook={w} />
      </div>
    </div>
  );
}

/** A webhook's delivery log for support: grouped by delivery, failures first, with manual retry. */
export function DeliveriesView({ projectId, webhookId }: { projectId: string; webhookId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const limit = oneOf(url.limit, LIMITS, "100");
  const tracker = useRetryTracker(projectId);
  const logs = useQuery({
    ...trpc.webhooks.listDeliveryLogs.queryOptions({ projectId, webhookId, limit: Number(limit) }),
    // Poll every second while a manual retry is awaited, and while automatic retries are under way.
    refetchInterval: (query) => (tracker.waiting ? 1000 : query.state.data?.some((l) => l.deliveryStatus === "Pending") ? 2000 : false),
  });
  const { observe } = tracker;
  useEffect(() => observe(logs.data), [observe, logs.data]);
  const groups = useMemo(() => groupDeliveries(logs.data ?? []), [logs.data]);
  const failing = groups.filter((g) => g.needsAttention).length;

  return (
    <div className="space-y-6">
      <div>
        <Link href={webhooksPath(projectId)} className="text-sm text-zinc-500 hover:text-zinc-800">
          ← Webhooks
        </Link>
        <div className="mt-1">
          <WebhookSummary projectId={projectId} webhookId={webhookId} />
        </div>
      </div>
      <Card
        title="Delivery log"
        description="Each reward is one delivery with a stable id (X-Service-Delivery-Id); every attempt is one entry. Failures come first."
        actions={
          <div className="flex items-center gap-2">
            <label className="flex items-center gap-2 text-sm text-zinc-600">
              Entries
              <select
                value={limit}
                onChange={(e) => setUrl({ limit: e.target.value })}
                className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
              >
                {LIMITS.map((l) => (
                  <option key={l} value={l}>
                    {l}
                  </option>
                ))}
              </select>
            </label>
            <Link href={deliveriesSearchPath(projectId, { webhookId })} className="text-sm text-brand-700 hover:underline">
              Search
            </Link>
            <Button variant="secondary" size="sm" pending={logs.isFetching} onClick={() => logs.refetch()}>
              Refresh
            </Button>
          </div>
        }
      >
        {logs.isError && (
          <ErrorMessage>
            {loadErrorMessage(logs.error, "webhook")}
          </ErrorMessage>
        )}
        {logs.isPending && !logs.isError && <p className="text-sm text-zinc-500">Loading deliveries…</p>}
        {logs.data && (
          <p className="text-sm text-zinc-600">
            {groups.length === 0
              ? "No deliveries yet. Each reward granted sends one."
              : `${groups.length} deliver${groups.length === 1 ? "y" : "ies"} in the latest ${logs.data.length} entries${failing ? `, ${failing} failing` : ""}.`}
            {logs.data.length === Number(limit) && " Older entries are not loaded: raise the number of entries to see them."}
          </p>
        )}
      </Card>
      {groups.map((group) => (
        <DeliveryCard
          key={group.deliveryId}
          projectId={projectId}
          group={group}
          progress={tracker.progress[group.deliveryId]}
          onRetry={(entry) => tracker.start(entry, group.latest.attemptNumber)}
        />
      ))}
    </div>
  );
}
