"use client";

import Link from "next/link";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { Pagination } from "@/components/ui/pagination";
import { appUserPath } from "@/components/app-users/paths";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { BulkRetry } from "./bulk-retry";
import { DeliveryTable } from "./delivery-table";
import { deliveryPath, referralPath } from "./paths";
import type { Delivery } from "./types";

const STATUSES = ["", "Pending", "Succeeded", "Failed"] as const;
const URL_DEFAULTS = { q: "", status: "", webhookId: "", event: "", from: "", to: "", page: "1" } as const;
const PAGE_SIZE = 20;
const inputClass = "rounded-md border border-zinc-300 bg-white px-2 py-1.5 text-sm";

/** A `datetime-local` value (local time) as an ISO instant, or undefined when empty or unreadable. */
const instant = (local: string) => {
  const at = local ? new Date(local) : null;
  return at && !Number.isNaN(at.getTime()) ? at.toISOString() : undefined;
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const link = "font-medium text-brand-700 hover:underline";

/**
 * What the search term names, found even when no delivery does (a reward never granted sends none):
 * a delivery id or a tracking id (looked up as a referral), or the client id of an app user.
 */
function Recognised({ projectId, term, items }: { projectId: string; term: string; items: readonly Delivery[] }) {
  const trpc = useTRPC();
  const uuid = UUID.test(term);
  const referral = useQuery({ ...trpc.referrals.get.queryOptions({ projectId, trackingId: term }), enabled: uuid && !items.some((d) => d.deliveryId === term), retry: false });
  const user = useQuery({ ...trpc.appUsers.getByClientId.queryOptions({ projectId, clientProvidedId: term }), enabled: !!term && !uuid, retry: false });
  if (!term) return null;
  if (items.some((d) => d.deliveryId === term)) {
    return (
      <p className="text-sm text-zinc-700">
        A delivery id: <Link className={link} href={deliveryPath(projectId, term)}>open the delivery</Link>.
      </p>
    );
  }
  if (referral.data) {
    const r = referral.data.referral;
    return (
      <p className="text-sm text-zinc-700">
        A tracking id ({r.referrerId} → {r.refereeId ?? "referee not known yet"}, {r.status}
        {referral.data.rewardEvents.length ? `, ${referral.data.rewardEvents.length} reward event${referral.data.rewardEvents.length === 1 ? "" : "s"}` : ", no reward event reported"}
        ): <Link className={link} href={referralPath(projectId, term)}>open the referral</Link>.
      </p>
    );
  }
  if (user.data) {
    const role = items.some((d) => d.refereeId === term) ? (items.some((d) => d.referrerId === term) ? "a referrer and referee" : "a referee") : items.length ? "a referrer" : "an app user";
    return (
      <p className="text-sm text-zinc-700">
        The client id of {role}: <Link className={link} href={appUserPath(projectId, user.data.uniqueId)}>open the user</Link>, their referrals and events.
      </p>
    );
  }
  return null;
}

/**
 * The support console's search: one box for any id a customer quotes (a delivery id, a tracking id, a
 * referrer's or referee's client id), plus filters, over every webhook's deliveries; the state is in
 * the URL, so a search can be shared or reloaded.
 */
export function DeliverySearch({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const [term, setTerm] = useState(url.q);
  const status = oneOf(url.status, STATUSES, "");
  const page = positiveInt(url.page, 1);
  const filter = {
    ...(url.q.trim() ? { search: url.q.trim() } : {}),
    ...(status ? { status } : {}),
    ...(url.webhookId ? { webhookId: url.webhookId } : {}),
    ...(url.event ? { event: url.event } : {}),
    ...(instant(url.from) ? { from: instant(url.from) } : {}),
    ...(instant(url.to) ? { to: instant(url.to) } : {}),
  };
  const webhooks = useQuery(trpc.webhooks.list.queryOptions({ projectId }));
  const deliveries = useQuery({
    ...trpc.deliveries.list.queryOptions({ projectId, ...filter, page, pageSize: PAGE_SIZE }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (query.state.data?.items.some((d) => d.status === "Pending") ? 2000 : false),
  });

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setUrl({ q: term.trim(), page: null });
  }

  return (
    <div className="space-y-6">
      <Card
        title="Find a delivery"
        description="Paste what the customer quotes: a delivery id, a tracking id, or the referrer's or referee's client id (exactly). Narrow with the filters."
      >
        <form role="search" onSubmit={submit} className="flex flex-wrap items-end gap-2">
          <label className="flex min-w-72 flex-1 flex-col gap-1 text-sm text-zinc-700">
            Search
            <input
              type="search"
              name="q"
              value={term}
              onChange={(e) => setTerm(e.target.value)}
              placeholder="Delivery id, tracking id or client id"
              className={inputClass}
            />
          </label>
          <Button type="submit">Search</Button>
        </form>
        <div className="mt-3 flex flex-wrap items-end gap-3">
          <label className="flex flex-col gap-1 text-sm text-zinc-700">
            Status
            <select value={status} onChange={(e) => setUrl({ status: e.target.value, page: null })} className={inputClass}>
              {STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s || "Any"}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm text-zinc-700">
            Webhook
            <select value={url.webhookId} onChange={(e) => setUrl({ webhookId: e.target.value, page: null })} className={inputClass}>
              <option value="">Any</option>
              {webhooks.data?.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex flex-col gap-1 text-sm text-zinc-700">
            Event
            <input defaultValue={url.event} key={url.event} onBlur={(e) => setUrl({ event: e.target.value.trim(), page: null })} className={inputClass} placeholder="Any" />
          </label>
          <label className="flex flex-col gap-1 text-sm text-zinc-700">
            Created from
            <input type="datetime-local" value={url.from} onChange={(e) => setUrl({ from: e.target.value, page: null })} className={inputClass} />
          </label>
          <label className="flex flex-col gap-1 text-sm text-zinc-700">
            to
            <input type="datetime-local" value={url.to} onChange={(e) => setUrl({ to: e.target.value, page: null })} className={inputClass} />
          </label>
          <Button
            variant="ghost"
            size="sm"
            onClick={() => {
              setTerm("");
              setUrl({ q: null, status: null, webhookId: null, event: null, from: null, to: null, page: null });
            }}
          >
            Clear
          </Button>
        </div>
      </Card>
      <Card
        title="Deliveries"
        description="Every webhook's deliveries, newest first."
        actions={
          deliveries.data ? (
            <div className="flex flex-wrap items-center justify-end gap-2">
              <ExportButton label="Export CSV" url={exportUrl(projectId, "deliveries", filter)} />
              <BulkRetry projectId={projectId} filter={filter} selected={deliveries.data.totalCount} />
            </div>
          ) : null
        }
      >
        {deliveries.isError && <ErrorMessage>{toFormErrors(deliveries.error).message}</ErrorMessage>}
        {deliveries.isPending && !deliveries.isError && <p className="text-sm text-zinc-500">Loading deliveries…</p>}
        {deliveries.data && (
          <div className="space-y-3">
            <Recognised key={url.q} projectId={projectId} term={url.q.trim()} items={deliveries.data.items} />
            <p className="text-sm text-zinc-600">
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
