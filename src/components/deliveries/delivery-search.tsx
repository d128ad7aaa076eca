"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { DateRangeFilter, FilterBar, rangeFilter, SelectFilter, TextFilter } from "@/components/ui/filter-bar";
import { Pagination } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { DELIVERY_STATUSES } from "@/lib/schemas/deliveries";
import { useTRPC } from "@/lib/trpc";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { BulkRetry } from "./bulk-retry";
import { DeliveryTable } from "./delivery-table";
import { RecognisedId } from "./recognised-id";

const URL_DEFAULTS = { q: "", status: "", webhookId: "", event: "", from: "", to: "", page: "1" } as const;
const PAGE_SIZE = 20;

/**
 * The support console's search: one box for any id a customer quotes (a delivery id, a tracking id, a
 * referrer's or referee's client id), plus filters, over every webhook's deliveries; the state is in
 * the URL, so a search can be shared or reloaded.
 */
export function DeliverySearch({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const status = oneOf(url.status, ["", ...DELIVERY_STATUSES] as const, "");
  const page = positiveInt(url.page, 1);
  const filter = {
    ...(url.q.trim() ? { search: url.q.trim() } : {}),
    ...(status ? { status } : {}),
    ...(url.webhookId ? { webhookId: url.webhookId } : {}),
    ...(url.event ? { event: url.event } : {}),
    ...rangeFilter(url.from, url.to, "minute"),
  };
  const webhooks = useQuery(trpc.webhooks.list.queryOptions({ projectId }));
  const deliveries = useQuery({
    ...trpc.deliveries.list.queryOptions({ projectId, ...filter, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "Pending") ? 2000 : false),
  });

  return (
    <div className="space-y-6">
      <Card
        title="Find a delivery"
        description="Paste what the customer quotes: a delivery id, a tracking id, or the referrer's or referee's client id (exactly). Narrow with the filters."
      >
        <FilterBar
          label="Filter deliveries"
          columns="sm:grid-cols-2 lg:grid-cols-3"
          onClear={() => setUrl({ q: null, status: null, webhookId: null, event: null, from: null, to: null, page: null })}
        >
          <TextFilter
            label="Search"
            className="sm:col-span-2 lg:col-span-3"
            value={url.q}
            onChange={(q, mode) => setUrl({ q, page: null }, mode)}
            placeholder="Delivery id, tracking id or client id"
            button
          />
          <SelectFilter label="Status" value={status} options={DELIVERY_STATUSES} allLabel="Any" onChange={(v) => setUrl({ status: v, page: null })} />
          <SelectFilter
            label="Webhook"
            value={url.webhookId}
            options={webhooks.data?.map((w) => ({ value: w.id, label: w.name })) ?? []}
            allLabel="Any"
            onChange={(v) => setUrl({ webhookId: v, page: null })}
          />
          <TextFilter label="Event" value={url.event} onChange={(event, mode) => setUrl({ event, page: null }, mode)} placeholder="Any" hint="Exactly, case-sensitive." />
          <DateRangeFilter from={url.from} to={url.to} precision="minute" onChange={(range) => setUrl({ ...range, page: null })} />
        </FilterBar>
      </Card>
      <Card
        title="Deliveries"
        description="Every webhook's deliveries, newest first."
        actions={
          deliveries.data ? (
            <div className="flex flex-wrap items-center justify-end gap-2">
              <ExportButton label="Export CSV" url={exportUrl(projectId, "deliveries", filter)} />
              <BulkRetry projectId={projectId} filter={filter} selected={deliveries.data.totalCount} selectedExact={deliveries.data.totalCountExact} />
            </div>
          ) : null
        }
      >
        {deliveries.isError && <ErrorMessage>{toFormErrors(deliveries.error).message}</ErrorMessage>}
        {deliveries.isPending && !deliveries.isError && <p className="text-sm text-zinc-500">Loading deliveries…</p>}
        {deliveries.data && (
          <div className="space-y-3">
            <RecognisedId key={url.q} projectId={projectId} term={url.q.trim()} parties={deliveries.data.items} deliveryIds={deliveries.data.items.map((d) => d.deliveryId)} />
            <p className="text-sm text-zinc-600">
              {deliveries.data.totalCountExact ? "" : "More than "}
              {deliveries.data.totalCount.toLocaleString("en-GB")} deliver{deliveries.data.totalCount === 1 ? "y" : "ies"}
            </p>
            <DeliveryTable
              projectId={projectId}
              caption="Deliveries found"
              deliveries={deliveries.data.items}
              stale={deliveries.isPlaceholderData}
              empty={url.q ? "Nothing matches this id exactly: check it, or search for another party's id." : "No deliveries match these filters."}
            />
            {deliveries.data.totalCount > PAGE_SIZE && (
              <Pagination
                label="Deliveries"
                page={page}
                pageSize={PAGE_SIZE}
                totalCount={deliveries.data.totalCount}
                totalCountExact={deliveries.data.totalCountExact}
                hasNextPage={deliveries.data.hasNextPage}
                onPageChange={(next) => setUrl({ page: next })}
              />
            )}
          </div>
        )}
      </Card>
    </div>
  );
}
