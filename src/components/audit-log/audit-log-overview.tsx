"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import { describeUserAgent } from "@/components/account/describe-user-agent";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { IpAddress } from "@/components/ui/ip-address";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, AUDIT_ACTOR_MAX_LENGTH, AUDIT_EXPORT_MAX_ENTRIES, auditIpSchema, type AuditEntryDto } from "@/lib/schemas/audit";
import { DEFAULT_PAGE_SIZE } from "@/lib/schemas/common";
import { useTRPC } from "@/lib/trpc";
import { useDebouncedValue } from "@/lib/use-debounced-value";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";

const URL_DEFAULTS = { action: "", actor: "", ip: "", from: "", to: "", page: "1", pageSize: String(DEFAULT_PAGE_SIZE) };
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A date input's day as an instant in the user's time zone: its start, or (for `to`) the next day's start. */
function dayStart(day: string, plusDays = 0): string | undefined {
  if (!DAY.test(day)) return undefined;
  const start = new Date(`${day}T00:00:00`);
  start.setDate(start.getDate() + plusDays);
  return Number.isNaN(start.getTime()) ? undefined : start.toISOString();
}

function Target({ entry }: { entry: AuditEntryDto }) {
  if (!entry.targetType) return <span className="text-zinc-500">—</span>;
  return (
    <span>
      <span className="text-zinc-500">{entry.targetType}</span> {entry.targetLabel ?? <code className="font-mono text-xs">{entry.targetId}</code>}
    </span>
  );
}

/** Where the request came from: the client's address, and the device below it (the full user agent as its title). */
function RequestFrom({ entry }: { entry: AuditEntryDto }) {
  return (
    <span className="block leading-tight">
      <span className="block">
        <IpAddress value={entry.ipAddress} />
      </span>
      {entry.userAgent && (
        <span className="block text-xs text-zinc-500" title={entry.userAgent}>
          {describeUserAgent(entry.userAgent)}
        </span>
      )}
    </span>
  );
}

const isIp = (value: string) => auditIpSchema.safeParse(value).success;

/** Owners' view of who did what: filtered by action, actor, IP address and dates, paged, exportable as CSV or JSON. */
export function AuditLogOverview() {
  const trpc = useTRPC();
  const permission = usePermission("audit.read");
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const action = oneOf(url.action, ["", ...AUDIT_ACTIONS] as const, "");
  const page = positiveInt(url.page, 1);
  const pageSize = oneOf(url.pageSize, PAGE_SIZES.map(String), URL_DEFAULTS.pageSize);
  const [actor, setActor] = useState(url.actor);
  const debouncedActor = useDebouncedValue(actor.trim(), 300);
  useEffect(() => {
    if (debouncedActor !== url.actor) setUrl({ actor: debouncedActor, page: null }, "replace");
  }, [debouncedActor]);
  // Only a whole address filters: a half-typed one would be refused by the server at every pause.
  const [ip, setIp] = useState(url.ip);
  const debouncedIp = useDebouncedValue(ip.trim(), 300);
  const ipIncomplete = debouncedIp !== "" && !isIp(debouncedIp);
  useEffect(() => {
    if (!ipIncomplete && debouncedIp !== url.ip) setUrl({ ip: debouncedIp, page: null }, "replace");
  }, [debouncedIp]);

  const filter = {
    ...(action ? { action } : {}),
    ...(url.actor ? { actor: url.actor } : {}),
    ...(isIp(url.ip) ? { ip: url.ip } : {}),
    ...(dayStart(url.from) ? { from: dayStart(url.from) } : {}),
    ...(dayStart(url.to, 1) ? { to: dayStart(url.to, 1) } : {}),
  };
  const entries = useQuery({
    ...trpc.auditLog.list.queryOptions({ ...filter, page, pageSize: Number(pageSize) }),
    placeholderData: keepPreviousData,
    enabled: permission.allowed,
  });
  if (!permission.allowed) return <PermissionNote reason={permission.reason} />;
  const exportHref = (format: "csv" | "json") => `/api/audit-log/export?${new URLSearchParams({ format, ...filter })}`;

  return (
    <div className="space-y-6">
      <Card
        title="Filter"
        actions={
          <div className="flex gap-2">
            <a href={exportHref("csv")} download className={buttonClasses("secondary", "sm")}>
              Export CSV
            </a>
            <a href={exportHref("json")} download className={buttonClasses("secondary", "sm")}>
              Export JSON
            </a>
          </div>
        }
      >
        <form role="search" aria-label="Filter the audit log" className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5" onSubmit={(e) => e.preventDefault()}>
          <FormField label="Action">
            {(p) => (
              <select {...p} value={action} onChange={(e) => setUrl({ action: e.target.value, page: null })} className={inputClasses}>
                <option value="">All actions</option>
                {AUDIT_ACTIONS.map((a) => (
                  <option key={a} value={a}>
                    {AUDIT_ACTION_LABELS[a]}
                  </option>
                ))}
              </select>
            )}
          </FormField>
          <FormField label="Actor" hint="Part of an e-mail or key name.">
            {(p) => <input {...p} value={actor} maxLength={AUDIT_ACTOR_MAX_LENGTH} onChange={(e) => setActor(e.target.value)} className={inputClasses} />}
          </FormField>
          <FormField label="IP address" hint="A whole address." error={ipIncomplete ? "is not a whole IPv4 or IPv6 address" : undefined}>
            {(p) => <input {...p} value={ip} maxLength={45} spellCheck={false} onChange={(e) => setIp(e.target.value)} className={inputClasses} />}
          </FormField>
          <FormField label="From">
            {(p) => <input {...p} type="date" value={url.from} onChange={(e) => setUrl({ from: e.target.value, page: null })} className={inputClasses} />}
          </FormField>
          <FormField label="To" hint="Inclusive.">
            {(p) => <input {...p} type="date" value={url.to} onChange={(e) => setUrl({ to: e.target.value, page: null })} className={inputClasses} />}
          </FormField>
        </form>
        <p className="mt-3 text-xs text-zinc-500">Exports hold the filtered entries, newest first, at most {AUDIT_EXPORT_MAX_ENTRIES.toLocaleString("en-GB")}.</p>
      </Card>
      <Card title="Entries">
        {entries.isError && <ErrorMessage>{toFormErrors(entries.error).message}</ErrorMessage>}
        {entries.isPending && !entries.isError && <p className="text-sm text-zinc-500">Loading the audit log…</p>}
        {entries.data && (
          <>
            <DataTable<AuditEntryDto>
              caption="Audit log"
              rows={entries.data.items}
              rowKey={(e) => e.id}
              stale={entries.isPlaceholderData}
              empty="No entries match."
              columns={[
                { id: "time", header: "Time", cell: (e) => <DateTime iso={e.createdAt} seconds /> },
                { id: "actor", header: "Actor", cell: (e) => <span className="break-all">{e.actorType === "apiKey" ? `API key ${e.actorLabel}` : e.actorLabel}</span> },
                { id: "action", header: "Action", cell: (e) => <span title={e.action}>{AUDIT_ACTION_LABELS[e.action]}</span> },
                { id: "target", header: "Target", cell: (e) => <Target entry={e} /> },
                { id: "from", header: "IP address", cell: (e) => <RequestFrom entry={e} /> },
                {
                  id: "details",
                  header: "Details",
                  cell: (e) => (e.details ? <code className="font-mono text-xs break-all text-zinc-600">{JSON.stringify(e.details)}</code> : null),
                },
              ]}
            />
            <Pagination
              label="Audit log"
              page={entries.data.page}
              pageSize={entries.data.pageSize}
              totalCount={entries.data.totalCount}
              hasNextPage={entries.data.hasNextPage}
              onPageChange={(p) => setUrl({ page: p })}
              onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
            />
          </>
        )}
      </Card>
    </div>
  );
}
