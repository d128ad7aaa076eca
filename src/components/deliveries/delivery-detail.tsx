"use client";

import { Breakable } from "@/components/ui/breakable";
import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { AppUserLink } from "@/components/app-users/app-user-link";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { DateTime } from "@/components/ui/date-time";
import { deliveriesPath } from "@/components/webhooks/types";
import { DELIVERY_FAILURES, type DeliveryFailure } from "@/lib/schemas/deliveries";
import { loadErrorMessage } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { DeliveryState } from "./delivery-table";
import { deliveriesSearchPath, referralPath } from "./paths";
import { RetryDeliveryButton } from "./retry-delivery-button";
import type { DeliveryAttempt } from "./types";

/* A labelled figure (a bare pre's label is ignored) that the keyboard can focus, to scroll a long body. */
const pre = "max-h-80 overflow-auto focus-visible:outline-2 focus-visible:outline-brand-500 rounded bg-zinc-100 p-3 font-mono text-xs whitespace-pre-wrap break-all text-zinc-800";

/** A JSON body shown indented (what was sent is compact); anything else as it is. */
function pretty(body: string) {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Row({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div className="grid grid-cols-[10rem_1fr] gap-2 py-1 text-sm">
      <dt className="text-zinc-500">{label}</dt>
      <dd className="break-all text-zinc-900">{children}</dd>
    </div>
  );
}

/** One attempt: the request as sent (secret redacted) and the response, or why there was none. */
function Attempt({ attempt, purged }: { attempt: DeliveryAttempt; purged: boolean }) {
  const { request, response } = attempt;
  return (
    <section aria-label={`Attempt ${attempt.attemptNumber}`} className="rounded-lg border border-zinc-200 bg-white p-4 shadow-sm">
      <header className="flex flex-wrap items-center gap-3">
        <h3 className="text-sm font-semibold text-zinc-900">Attempt {attempt.attemptNumber}</h3>
        {attempt.success ? <Badge tone="green">Success</Badge> : <Badge tone="red">Failed</Badge>}
        <span className="text-sm text-zinc-600">
          <DateTime iso={attempt.at} seconds /> · {attempt.durationMs.toLocaleString("en-GB")} ms
        </span>
      </header>
      {attempt.error && <p className="mt-2 text-sm text-red-800">{attempt.error}</p>}
      <div className="mt-3 grid gap-4 lg:grid-cols-2">
        <div>
          <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Request</h4>
          {request ? (
            <>
              <p className="mt-1 font-mono text-xs">
                POST <Breakable text={request.url} />
              </p>
              <dl className="mt-2 font-mono text-xs">
                {Object.entries(request.headers).map(([name, value]) => (
                  <div key={name} className="flex gap-2">
                    <dt className="text-zinc-500">{name}:</dt>
                    <dd className="break-all text-zinc-800">{value}</dd>
                  </div>
                ))}
              </dl>
              <p className="mt-2 text-xs text-zinc-500">Body</p>
              {request.body === null ? (
                <p className="text-sm text-zinc-500">{purged ? "Purged at the end of its retention." : "Not kept."}</p>
              ) : (
                <pre role="figure" tabIndex={0} aria-label={`Request body of attempt ${attempt.attemptNumber}`} className={pre}>
                  {pretty(request.body)}
                </pre>
              )}
            </>
          ) : (
            <p className="mt-1 text-sm text-zinc-500">Nothing was sent.</p>
          )}
        </div>
        <div>
          <h4 className="text-xs font-semibold tracking-wide text-zinc-500 uppercase">Response</h4>
          {response ? (
            <>
              <p className="mt-1 text-sm">
                HTTP <strong>{response.status}</strong> in {response.durationMs.toLocaleString("en-GB")} ms
              </p>
              {response.body === null ? (
                <p className="text-sm text-zinc-500">{purged ? "Body purged at the end of its retention." : "Empty body."}</p>
              ) : (
                <pre role="figure" tabIndex={0} aria-label={`Response body of attempt ${attempt.attemptNumber}`} className={pre}>
                  {response.body}
                </pre>
              )}
            </>
          ) : (
            <p className="mt-1 text-sm text-zinc-500">No HTTP answer{attempt.error ? ": see the error above." : "."}</p>
          )}
        </div>
      </div>
    </section>
  );
}

/** A delivery's page: where it stands, its referral and parties, its one Retry, and every attempt in full. */
export function DeliveryDetail({ projectId, deliveryId }: { projectId: string; deliveryId: string }) {
  const trpc = useTRPC();
  const detail = useQuery({
    ...trpc.deliveries.get.queryOptions({ projectId, deliveryId }),
    refetchInterval: (query) => (query.state.data?.delivery.status === "Pending" ? 1000 : false),
  });
  const back = (
    <Link href={deliveriesSearchPath(projectId)} className="text-sm text-zinc-500 hover:text-zinc-800">
      ← Deliveries
    </Link>
  );
  if (detail.isPending) return <p className="text-sm text-zinc-500">Loading delivery…</p>;
  if (detail.isError) {
    return (
      <div className="space-y-3">
        <ErrorMessage>{loadErrorMessage(detail.error, "delivery")}</ErrorMessage>
        {back}
      </div>
    );
  }
  const { delivery: d, attempts } = detail.data;
  return (
    <div className="space-y-6">
      <div>
        {back}
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h2 className="text-xl font-semibold text-zinc-900">
            Delivery <code className="font-mono text-base">{d.deliveryId}</code>
          </h2>
          <CopyButton value={d.deliveryId} label={`delivery id ${d.deliveryId}`} />
          <DeliveryState delivery={d} />
        </div>
      </div>
      <Card title="Overview" actions={<RetryDeliveryButton projectId={projectId} delivery={d} />}>
        <dl>
          <Row label="Event">
            <code className="font-mono text-xs">{d.event}</code>
          </Row>
          <Row label="Webhook">
            <Link href={deliveriesPath(projectId, d.webhookId)} className="text-brand-700 hover:underline">
              {d.webhookName}
            </Link>
          </Row>
          <Row label="Referral">
            {d.trackingId ? (
              <Link href={referralPath(projectId, d.trackingId)} className="font-mono text-xs text-brand-700 hover:underline">
                {d.trackingId}
              </Link>
            ) : (
              "— (a test event)"
            )}
          </Row>
          <Row label="Referrer">{d.referrerId ? <AppUserLink projectId={projectId} clientProvidedId={d.referrerId} uniqueId={d.referrerUniqueId ?? undefined} /> : "—"}</Row>
          <Row label="Referee">{d.refereeId ? <AppUserLink projectId={projectId} clientProvidedId={d.refereeId} uniqueId={d.refereeUniqueId ?? undefined} /> : "—"}</Row>
          <Row label="Attempts">{d.attempts}</Row>
          <Row label="Next attempt">
            {d.nextAttemptAt ? <DateTime iso={d.nextAttemptAt} seconds /> : d.status === "Succeeded" ? "None: it succeeded." : "None scheduled."}
          </Row>
          {d.failure && <Row label="Why it failed">{DELIVERY_FAILURES[d.failure as DeliveryFailure]}</Row>}
          {d.lastError && <Row label="Last error">{d.lastError}</Row>}
          <Row label="Created">
            <DateTime iso={d.createdAt} seconds />
          </Row>
          {d.recoveredAt && (
            <Row label="Resent by recovery">
              <DateTime iso={d.recoveredAt} seconds /> (after the endpoint came back; recovery sends a delivery once)
            </Row>
          )}
          {d.bodiesPurgedAt && (
            <Row label="Bodies purged">
              <DateTime iso={d.bodiesPurgedAt} />
            </Row>
          )}
        </dl>
      </Card>
      <div className="space-y-4">
        {attempts.length === 0 ? <p className="text-sm text-zinc-600">No attempt yet: the first is due at once.</p> : null}
        {[...attempts].reverse().map((attempt) => (
          <Attempt key={attempt.id} attempt={attempt} purged={d.bodiesPurgedAt !== null} />
        ))}
      </div>
    </div>
  );
}
