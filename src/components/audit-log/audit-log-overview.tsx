"use client";

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { describeUserAgent } from "@/components/account/describe-user-agent";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { DataTable } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import { DateRangeFilter, FilterBar, rangeFilter, SelectFilter, TextFilter } from "@/components/ui/filter-bar";
import { IpAddress } from "@/components/ui/ip-address";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { toFormErrors } from "@/lib/errors";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, AUDIT_ACTOR_MAX_LENGTH, AUDIT_EXPORT_MAX_ENTRIES, auditIpSchema, type AuditEntryDto } from "@/lib/schemas/audit";
import { DEFAULT_PAGE_SIZE } from "@/lib/schemas/common";
import { useTRPC } from "@/lib/trpc";
import { oneOf, positiveInt, useUrlState } from "@/lib/use-url-state";

const URL_DEFAULTS = { action: "", actor: "", ip: "", from: "", to: "", page: "1", pageSize: String(DEFAULT_PAGE_SIZE) };
const ACTION_OPTIONS = AUDIT_ACTIONS.map((a) => ({ value: a, label: AUDIT_ACTION_LABELS[a] }));

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
  const filter = {
    ...(action ? { action } : {}),
    ...(url.actor.trim() ? { actor: url.actor.trim() } : {}),
    ...(isIp(url.ip) ? { ip: url.ip } : {}),
    ...rangeFilter(url.from, url.to),
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
        <FilterBar label="Filter the audit log" columns="sm:grid-cols-3 lg:grid-cols-5">
          <SelectFilter label="Action" value={action} options={ACTION_OPTIONS} allLabel="All actions" onChange={(v) => setUrl({ action: v, page: null })} />
          <TextFilter label="Actor" hint="Part of an e-mail or key name." maxLength={AUDIT_ACTOR_MAX_LENGTH} value={url.actor.trim()} onChange={(v, mode) => setUrl({ actor: v, page: null }, mode)} />
          {/* Only a whole address filters: a half-typed one would be refused by the server at every pause. */}
          <TextFilter
            label="IP address"
            hint="A whole address."
            maxLength={45}
            value={url.ip}
            invalid={(v) => (isIp(v) ? undefined : "is not a whole IPv4 or IPv6 address")}
            onChange={(v, mode) => setUrl({ ip: v, page: null }, mode)}
          />
          <DateRangeFilter from={url.from} to={url.to} onChange={(range) => setUrl({ ...range, page: null })} />
        </FilterBar>
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
