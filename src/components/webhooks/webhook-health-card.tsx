"use client";

import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { deliveryPath } from "@/components/deliveries/paths";
import { usePermission } from "@/components/dashboard/permissions";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DateTime } from "@/components/ui/date-time";
import { toFormErrors } from "@/lib/errors";
import { WEBHOOK_DISABLED_REASONS, type WebhookDisabledReason } from "@/lib/schemas/webhooks";
import { useTRPC } from "@/lib/trpc";
import type { Webhook } from "./types";
import { WebhookHealthChart } from "./webhook-health-chart";

function Figure({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-zinc-500">{label}</dt>
      <dd className="text-lg font-semibold text-zinc-900">{value}</dd>
    </div>
  );
}

/** The window's success rate as people read it ("—" without attempts). */
export const successRateText = (health: Webhook["health"]) => (health.successRate === null ? "—" : `${(health.successRate * 100).toFixed(1)} %`);

/** How a disabled webhook came to be off, in words: the service's reason, or a member's switch. */
export const disabledText = (webhook: Pick<Webhook, "disabledReason">) =>
  webhook.disabledReason ? `: ${WEBHOOK_DISABLED_REASONS[webhook.disabledReason as WebhookDisabledReason]}` : " by a member.";

const ms = (value: number | null) => (value === null ? "—" : `${value.toLocaleString("en-GB")} ms`);

/** A webhook's health over the last 24 hours, why the service disabled it (with the one click that undoes it), and a test event. */
export function WebhookHealthCard({ projectId, webhook }: { projectId: string; webhook: Webhook }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const write = usePermission("webhooks.write");
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: trpc.webhooks.pathKey() }),
      queryClient.invalidateQueries({ queryKey: trpc.deliveries.pathKey() }),
    ]);
  const enable = useMutation(trpc.webhooks.update.mutationOptions({ onSuccess: refresh }));
  const test = useMutation(trpc.webhooks.sendTest.mutationOptions({ onSettled: refresh }));
  const { health } = webhook;
  const attempt = test.data?.attempts.at(-1);

  return (
    <Card
      title="Health"
      description={`The last ${health.windowHours} hours of attempts.`}
      actions={
        write.allowed ? (
          <Button size="sm" variant="secondary" pending={test.isPending} onClick={() => test.mutate({ projectId, webhookId: webhook.id })}>
            Send test event
          </Button>
        ) : null
      }
    >
      {!webhook.enabled && (
        <div className="mb-4 flex flex-wrap items-center gap-3 rounded-md border border-amber-200 bg-amber-50 px-3 py-2 text-sm text-amber-900">
          <span>
            Disabled{webhook.disabledAt ? <> since <DateTime iso={webhook.disabledAt} /></> : null}
            {disabledText(webhook)}
          </span>
          {write.allowed && (
            <Button size="sm" pending={enable.isPending} onClick={() => enable.mutate({ projectId, webhookId: webhook.id, enabled: true })}>
              Enable again
            </Button>
          )}
          {enable.isError && <span role="alert">{toFormErrors(enable.error).message}</span>}
        </div>
      )}
      <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5">
        <Figure label="Success rate" value={successRateText(health)} />
        <Figure label="Attempts" value={health.attempts.toLocaleString("en-GB")} />
        <Figure label="p50 / p95" value={`${ms(health.p50Ms)} / ${ms(health.p95Ms)}`} />
        <Figure label="Failures in a row" value={health.consecutiveFailures} />
        <Figure label="Last success" value={<DateTime iso={health.lastSuccessAt} empty="never" />} />
      </dl>
      <WebhookHealthChart projectId={projectId} webhookId={webhook.id} />
      {webhook.failingSince && (
        <p className="mt-3 text-sm text-red-800">
          Every attempt has failed since <DateTime iso={webhook.failingSince} />. After 5 days of this the webhook is disabled.
        </p>
      )}
      {test.isError && (
        <p role="alert" className="mt-3 text-sm text-red-700">
          {toFormErrors(test.error).message}
        </p>
      )}
      {test.data && attempt && (
        <p role="status" className={`mt-3 text-sm font-medium ${attempt.success ? "text-emerald-700" : "text-red-700"}`}>
          Test event {attempt.success ? "delivered" : "failed"}: {attempt.response ? `HTTP ${attempt.response.status}` : (attempt.error ?? "no answer")} in{" "}
          {attempt.durationMs} ms.{" "}
          <Link href={deliveryPath(projectId, test.data.delivery.deliveryId)} className="text-brand-700 underline">
            See what was sent
          </Link>
        </p>
      )}
    </Card>
  );
}
