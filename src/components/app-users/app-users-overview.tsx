"use client";

import { projectPath } from "@/components/projects/paths";
import { EmptyState } from "@/components/ui/empty-state";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useId, useState } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { usePermission } from "@/components/dashboard/permissions";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { inputClasses } from "@/components/ui/form-field";
import { Pagination, PAGE_SIZES } from "@/components/ui/pagination";
import { ExportButton, exportUrl } from "@/components/exports/export-button";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { useTypingDraft } from "@/lib/use-typing-draft";
import { oneOf, positiveInt, readList, useUrlState, writeList } from "@/lib/use-url-state";
import {
  APP_USER_SORT_FIELDS,
  ATTRIBUTE_KEY_MAX_LENGTH,
  ATTRIBUTE_VALUE_MAX_LENGTH,
  DEFAULT_APP_USER_SORT,
  MAX_ATTRIBUTES,
  SEARCH_MAX_LENGTH,
  SORT_ORDERS,
} from "@/lib/schemas/app-users";
import { DEFAULT_PAGE_SIZE } from "@/lib/schemas/common";
import { AppUsersTable } from "./app-users-table";
import { AttributeColumnsPicker, AttributeFilterFields, AttributeKeyOptions } from "./attribute-controls";
import { CreateAppUserForm } from "./create-app-user-form";

const URL_DEFAULTS = {
  q: "",
  ...DEFAULT_APP_USER_SORT,
  hasReferrals: "all",
  attributeKey: "",
  attributeValue: "",
  columns: "",
  page: "1",
  pageSize: String(DEFAULT_PAGE_SIZE),
  /** Set by an erasure on the user's page, for the success message. */
  erased: "",
};
const HAS_REFERRALS = ["all", "yes", "no"] as const;
const FILTER_OPTIONS = [
  { value: "all", label: "All" },
  { value: "yes", label: "With referrals" },
  { value: "no", label: "Without" },
] as const;

export function AppUsersOverview({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const [showCreate, setShowCreate] = useState(false);

  const sortBy = oneOf(url.sortBy, APP_USER_SORT_FIELDS, DEFAULT_APP_USER_SORT.sortBy);
  const sortOrder = oneOf(url.sortOrder, SORT_ORDERS, DEFAULT_APP_USER_SORT.sortOrder);
  const hasReferrals = oneOf(url.hasReferrals, HAS_REFERRALS, "all");
  const page = positiveInt(url.page, 1);
  const pageSize = oneOf(url.pageSize, PAGE_SIZES.map(String), URL_DEFAULTS.pageSize);
  // Cut to the API's bounds, so that a hand-edited URL never turns into a 400.
  const attributeKey = url.attributeKey.slice(0, ATTRIBUTE_KEY_MAX_LENGTH);
  const attributeValue = url.attributeValue.slice(0, ATTRIBUTE_VALUE_MAX_LENGTH);
  const columns = readList(url.columns, MAX_ATTRIBUTES).map((key) => key.slice(0, ATTRIBUTE_KEY_MAX_LENGTH));
  const keysListId = useId();

  // The box follows the keyboard at once; the URL (and so the query) once typing pauses.
  const search = useTypingDraft(url.q, (text, mode) => setUrl({ q: text.trim(), page: null }, mode), (a, b) => a.trim() === b.trim());

  // The same filter for the list and the export. The URL cannot hold an empty value, so the
  // dashboard filters on a filled one (the API also matches an empty value).
  const filter = {
    search: url.q || undefined,
    hasReferrals: hasReferrals === "all" ? undefined : hasReferrals === "yes" ? ("true" as const) : ("false" as const),
    ...(attributeKey && attributeValue ? { attributeKey, attributeValue } : {}),
  };
  const users = useQuery({
    ...trpc.appUsers.list.queryOptions({ projectId, ...filter, sortBy, sortOrder, page, pageSize: Number(pageSize) }),
    placeholderData: keepPreviousData,
  });
  // Suggestions only: the inputs take any key, so a failure here leaves them without a list.
  const keys = useQuery({ ...trpc.appUsers.attributeKeys.queryOptions({ projectId }), staleTime: 60_000 });

  const filtered = Boolean(filter.search) || hasReferrals !== "all" || Boolean(filter.attributeKey);
  const write = usePermission("appUsers.write");
  return (
    <div className="space-y-6">
      {url.erased && (
        <div role="status" className="flex flex-wrap items-center gap-3 rounded-md border border-emerald-200 bg-emerald-50 px-4 py-3 text-sm text-emerald-800">
          <p className="min-w-0 flex-1 [overflow-wrap:anywhere]">
            <strong className="font-semibold">{url.erased}</strong> was erased: their record, attributes and referral link are gone; their referrals stay, showing them as erased.
          </p>
          <Button size="sm" variant="ghost" onClick={() => setUrl({ erased: null })}>
            Dismiss
          </Button>
        </div>
      )}
      <Card
        title="App users"
        description="Your app's end users, each with a referral code. Search by e-mail or name (their start, any case), client id (any part) or exact referral code, filter by an attribute's exact value, and add attributes as columns (the export has them too)."
        actions={
          <Button
            variant={showCreate ? "secondary" : "primary"}
            size="sm"
            aria-expanded={showCreate}
            disabled={!write.allowed}
            title={write.reason ?? undefined}
            onClick={() => setShowCreate((v) => !v)}
          >
            {showCreate ? "Close form" : "New app user"}
          </Button>
        }
      >
        {showCreate && (
          <div className="mb-6 rounded-md border border-zinc-200 bg-zinc-50 p-4">
            <h3 className="mb-3 text-sm font-semibold text-zinc-900">New app user</h3>
            <CreateAppUserForm projectId={projectId} />
          </div>
        )}
        <div className="mb-4 flex flex-wrap items-center gap-3">
          <div className="min-w-64 flex-1">
            <label htmlFor="app-user-search" className="sr-only">
              Search app users
            </label>
            <input
              id="app-user-search"
              type="search"
              value={search.draft}
              onChange={(e) => search.edit(e.target.value)}
              placeholder="Search by e-mail, name, client id or referral code"
              maxLength={SEARCH_MAX_LENGTH}
              className={inputClasses}
            />
          </div>
          <SegmentedControl
            label="Has referrals"
            options={FILTER_OPTIONS}
            value={hasReferrals}
            onChange={(value) => setUrl({ hasReferrals: value, page: null })}
          />
          <ExportButton label="Export CSV" url={exportUrl(projectId, "app-users", { ...filter, attributes: columns })} />
          {users.isFetching && (
            <span role="status" className="text-xs text-zinc-500">
              Loading…
            </span>
          )}
        </div>
        <div className="mb-4 flex flex-wrap items-center gap-x-6 gap-y-3">
          <AttributeKeyOptions id={keysListId} keys={keys.data?.keys ?? []} />
          <AttributeFilterFields
            filter={{ key: attributeKey, value: attributeValue }}
            keysListId={keysListId}
            onChange={(next) => setUrl({ attributeKey: next.key, attributeValue: next.value, page: null }, "replace")}
          />
          <AttributeColumnsPicker columns={columns} keysListId={keysListId} onChange={(next) => setUrl({ columns: writeList(next) })} />
        </div>
        {users.isError && <ErrorMessage>{toFormErrors(users.error).message}</ErrorMessage>}
        {users.isPending && !users.isError && <p className="text-sm text-zinc-500">Loading app users…</p>}
        {users.data && (
          <>
            <AppUsersTable
              projectId={projectId}
              users={users.data.items}
              attributeColumns={columns}
              sort={{ sortBy, sortOrder }}
              onSortChange={(next) => setUrl({ sortBy: next.sortBy, sortOrder: next.sortOrder, page: null })}
              stale={users.isPlaceholderData}
              empty={
                page > 1 && users.data.totalCount > 0
                  ? "No app users on this page."
                  : filtered
                    ? "No app users match."
                    : (
                        <EmptyState href={projectPath(projectId, "campaign")} action="Install the widget or mobile client">
                          No app users yet. The client library creates them when your users sign in; your backend can create them too, or use “New app user”.
                        </EmptyState>
                      )
              }
            />
            <Pagination
              label="App users"
              page={page}
              pageSize={Number(pageSize)}
              totalCount={users.data.totalCount}
              totalCountExact={users.data.totalCountExact}
              hasNextPage={users.data.hasNextPage}
              onPageChange={(next) => setUrl({ page: next })}
              onPageSizeChange={(size) => setUrl({ pageSize: size, page: null })}
            />
          </>
        )}
      </Card>
    </div>
  );
}
