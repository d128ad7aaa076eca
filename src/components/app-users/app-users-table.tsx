"use client";

import type { ReactNode } from "react";
import { DataTable, type Column, type SortState } from "@/components/ui/data-table";
import { DateTime } from "@/components/ui/date-time";
import type { RouterOutputs } from "@/lib/trpc-types";
import type { AppUserSortField } from "@/lib/schemas/app-users";
import { AppUserLink } from "./app-user-link";

export type AppUser = RouterOutputs["appUsers"]["get"];

export type AppUserSortKey = AppUserSortField;

const number = (n: number) => n.toLocaleString("en-GB");

function columns(projectId: string, attributeColumns: readonly string[]): Column<AppUser, AppUserSortKey>[] {
  return [
    {
      id: "client",
      header: "Client id",
      sortKey: "clientProvidedId",
      firstOrder: "asc",
      cell: (u) => <AppUserLink projectId={projectId} clientProvidedId={u.clientProvidedId} uniqueId={u.uniqueId} />,
    },
    { id: "code", header: "Referral code", cell: (u) => <code className="font-mono text-xs">{u.referralCode}</code> },
    // The chosen attributes, after the user's names: a value may be long, so it is cut with the whole in its title.
    ...attributeColumns.map(
      (key): Column<AppUser, AppUserSortKey> => ({
        id: `attribute:${key}`,
        header: key,
        cell: (u) => (
          <span title={u.attributes[key]} className="block max-w-48 truncate">
            {u.attributes[key] ?? ""}
          </span>
        ),
      }),
    ),
    { id: "given", header: "Given", sortKey: "totalReferralsGiven", align: "right", cell: (u) => number(u.totalReferralsGiven) },
    { id: "successful", header: "Successful", sortKey: "successfulReferrals", align: "right", cell: (u) => number(u.successfulReferrals) },
    { id: "received", header: "Received", align: "right", cell: (u) => number(u.totalReferralsReceived) },
    { id: "first", header: "First seen", sortKey: "firstSeenAt", cell: (u) => <DateTime iso={u.firstSeenAt} /> },
    { id: "last", header: "Last seen", sortKey: "lastSeenAt", cell: (u) => <DateTime iso={u.lastSeenAt} empty="Never" /> },
    { id: "created", header: "Created", sortKey: "createdAt", cell: (u) => <DateTime iso={u.createdAt} /> },
  ];
}

type AppUsersTableProps = {
  projectId: string;
  users: readonly AppUser[];
  /** Attribute keys shown as columns, in this order. */
  attributeColumns: readonly string[];
  sort: SortState<AppUserSortKey>;
  onSortChange: (sort: SortState<AppUserSortKey>) => void;
  stale: boolean;
  empty: ReactNode;
};

export function AppUsersTable({ projectId, users, attributeColumns, sort, onSortChange, stale, empty }: AppUsersTableProps) {
  return (
    <DataTable
      caption="App users"
      columns={columns(projectId, attributeColumns)}
      rows={users}
      rowKey={(u) => u.uniqueId}
      sort={sort}
      onSortChange={onSortChange}
      stale={stale}
      empty={empty}
    />
  );
}
