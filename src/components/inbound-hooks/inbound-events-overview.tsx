"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge, type BadgeTone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { DateRangeFilter, FilterBar, rangeFilter, SelectFilter, TextFilter } from "@/components/ui/filter-bar";
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
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";

const URL_DEFAULTS = { provider: "", outcome: "", environment: "", search: "", from: "", to: "", page: "1", pageSize: String(DEFAULT_PAGE_SIZE) };

const OUTCOME_TONES: Record<InboundEventDto["outcome"], BadgeTone> = { rewarded: "green", ignored: "neutral", refused: "amber", revoked: "red" };

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
  const search = url.search.trim();

  const events = useQuery({
    ...trpc.inboundHooks.listEvents.queryOptions({
      projectId,
      ...(provider ? { provider } : {}),
      ...(outcome ? { outcome } : {}),
      ...(environment ? { environment } : {}),
      ...(search ? { search } : {}),
      ...rangeFilter(url.from, url.to),
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
        <FilterBar label="Filter inbound events" columns="sm:grid-cols-3 lg:grid-cols-6">
          <SelectFilter
            label="Provider"
            value={provider}
            options={INBOUND_PROVIDERS.map((v) => ({ value: v, label: INBOUND_PROVIDER_LABELS[v] }))}
            allLabel="All providers"
            onChange={(v) => setUrl({ provider: v, page: null })}
          />
          <SelectFilter label="Outcome" value={outcome} options={INBOUND_OUTCOMES} allLabel="All outcomes" onChange={(v) => setUrl({ outcome: v, page: null })} />
          <SelectFilter label="Environment" value={environment} options={REWARD_ENVIRONMENTS} allLabel="Both" onChange={(v) => setUrl({ environment: v, page: null })} />
          <TextFilter label="Search" hint="An event id or a referee's client id, exactly." value={search} onChange={(v, mode) => setUrl({ search: v, page: null }, mode)} />
          <DateRangeFilter from={url.from} to={url.to} onChange={(range) => setUrl({ ...range, page: null })} />
        </FilterBar>
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
