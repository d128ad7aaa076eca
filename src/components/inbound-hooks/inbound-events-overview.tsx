"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { DEFAULT_PAGE_SIZE } from "@/lib/schemas/common";
import {
  INBOUND_OUTCOMES,
  INBOUND_PROVIDER_LABELS,
  INBOUND_PROVIDERS,
  inboundReasonText,
  type InboundEventDto,
} from "@/lib/schemas/inbound-hooks";
import { REWARD_ENVIRONMENTS } from "@/lib/schemas/referrals";
import { useTRPC } from "@/lib/trpc";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";

const URL_DEFAULTS = { provider: "", outcome: "", environment: "", search: "", from: "", to: "", page: "1", pageSize: String(DEFAULT_PAGE_SIZE) };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date input's day as an instant in the user's time zone: its start, or (for `to`) the next day's start. */
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!DAY.test(day)) return undefined;
  const start = new Date(`${day}T00:00:00`);
  start.setDate(start.getDate() + plusDays);
  return Number.isNaN(start.getTime()) ? undefined : start.toISOString();
}

const OUTCOME_TONES: Record<InboundEventDto["outcome"], BadgeTone> = { rewarded: "green", ignored: "neutral", refused: "amber" };

function Outcome({ event }: { event: InboundEventDto }) {
  return (
    <span className="block leading-tight">
      <Badge tone={OUTCOME_TONES[event.outcome]}>{event.outcome}</Badge>
      {event.reason && (
        <span className="mt-1 block text-xs text-zinc-500" title={event.reason}>
          {inboundReasonText(event.reason)}
        </span>
      )}
    </span>
  );
}

/** What Stripe and RevenueCat sent to the project's hooks, newest first, with what each event did. */
export function InboundEventsOverview({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const provider = oneOf(url.provider, ["", ...INBOUND_PROVIDERS] as const, "");
  const outcome = oneOf(url.outcome, ["", ...INBOUND_OUTCOMES] as const, "");
  const environment = oneOf(url.environment, ["", ...REWARD_ENVIRONMENTS] as const, "");
  const page = positiveInt(url.page, 1);
  const pageSize = oneOf(url.pageSize, PAGE_SIZES.map(String), URL_DEFAULTS.pageSize);
  const [search, setSearch] = useState(url.search);
  const debouncedSearch = useDebouncedValue(search.trim(), 300);
  useEffect(() => {
    if (debouncedSearch !== url.search) setUrl({ search: debouncedSearch, page: null }, "replace");
  }, [debouncedSearch]);

  const events = useQuery({
    ...trpc.inboundHooks.listEvents.queryOptions({
      projectId,
      ...(provider ? { provider } : {}),
      ...(outcome ? { outcome } : {}),
      ...(environment ? { environment } : {}),
      ...(url.search ? { search: url.search } : {}),
      ...(dayStart(url.from) ? { from: dayStart(url.from) } : {}),
      ...(dayStart(url.to, 1) ? { to: dayStart(url.to, 1) } : {}),
      page,
      pageSize: Number(pageSize),
    }),
    placeholderData: keepPreviousData,
  });

  return (
    <div className="space-y-6">
      <Card
        title="Inbound events"
        description="Every event Stripe and RevenueCat sent that passed verification, once per provider event id: rewarded, ignored (not a first payment, no such user, no pending referral) or refused by the eligibility checks."
        actions={
          <div className="flex items-center gap-2">
            <Link href={`/dashboard/projects/${projectId}/settings`} className="text-sm font-medium whitespace-nowrap text-brand-700 hover:underline">
              Hook settings
            </Link>
            <Button variant="secondary" size="sm" pending={events.isFetching} onClick={() => events.refetch()}>
              Refresh
            </Button>
          </div>
        }
      >
        <form role="search" aria-label="Filter inbound events" className="grid gap-4 sm:grid-cols-3 lg:grid-cols-6" onSubmit={(e) => e.preventDefault()}>
          <FormField label="Provider">
            {(p) => (
              <select {...p} value={provider} onChange={(e) => setUrl({ provider: e.target.value, page: null })} className={inputClasses}>
                <option value="">All providers</option>
                {INBOUND_PROVIDERS.map((v) => (
                  <option key={v} value={v}>
                    {INBOUND_PROVIDER_LABELS[v]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Outcome">
            {(p) => (
              <select {...p} value={outcome} onChange={(e) => setUrl({ outcome: e.target.value, page: null })} className={inputClasses}>
                <option value="">All outcomes</option>
                {INBOUND_OUTCOMES.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Environment">
            {(p) => (
              <select {...p} value={environment} onChange={(e) => setUrl({ environment: e.target.value, page: null })} className={inputClasses}>
                <option value="">Both</option>
                {REWARD_ENVIRONMENTS.map((v) => (
                  <option key={v} value={v}>
                    {v}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Search" hint="An event id or a referee's client id, exactly.">
            {(p) => <input {...p} value={search} maxLength={255} spellCheck={false} onChange={(e) => setSearch(e.target.value)} className={inputClasses} />}
          </FormField>
          <FormField label="From">
            {(p) => <input {...p} type="date" value={url.from} onChange={(e) => setUrl({ from: e.target.value, page: null })} className={inputClasses} />}
          </FormField>
          <FormField label="To" hint="Inclusive.">
            {(p) => <input {...p} type="date" value={url.to} onChange={(e) => setUrl({ to: e.target.value, page: null })} className={inputClasses} />}
          </FormField>
        </form>
      </Card>
      <Card title="Events">
        {events.isError && (
          <ErrorMessage>{events.error.data?.code === "NOT_FOUND" ? "This project does not exist, or it belongs to another organisation." : toFormErrors(events.error).message}</ErrorMessage>
        )}
        {events.isPending && !events.isError && <p className="text-sm text-zinc-500">Loading inbound events…</p>}
        {events.data && (
          <>
            <DataTable<InboundEventDto>
              caption="Inbound events"
              rows={events.data.items}
              rowKey={(e) => e.id}
              stale={events.isPlaceholderData}
              empty="No inbound events match. Set up Stripe or RevenueCat in the project's settings."
              columns={[
                { id: "time", header: "Received", cell: (e) => <DateTime iso={e.createdAt} seconds /> },
                { id: "provider", header: "Provider", cell: (e) => INBOUND_PROVIDER_LABELS[e.provider] },
                {
                  id: "event",
                  header: "Event",
                  cell: (e) => (
                    <span className="block leading-tight">
                      <code className="font-mono text-xs">{e.type}</code>
                      <span className="block font-mono text-xs break-all text-zinc-500">{e.providerEventId}</span>
                    </span>
                  ),
                },
                { id: "environment", header: "Environment", cell: (e) => <Badge tone="blue">{e.environment}</Badge> },
                { id: "referee", header: "Referee", cell: (e) => (e.refereeId ? <span className="break-all">{e.refereeId}</span> : <span className="text-zinc-500">—</span>) },
                { id: "outcome", header: "Outcome", cell: (e) => <Outcome event={e} /> },
                { id: "reported", header: "Reported as", cell: (e) => (e.eventName ? <code className="font-mono text-xs">{e.eventName}</code> : <span className="text-zinc-500">—</span>) },
              ]}
            />
            <Pagination
              label="Inbound events"
              page={events.data.page}
              pageSize={events.data.pageSize}
              totalCount={events.data.totalCount}
              hasNextPage={events.data.hasNextPage}
              onPageChange={(p) => setUrl({ page: p })}
              onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
            />
          </>
        )}
      </Card>
    </div>
  );
}
