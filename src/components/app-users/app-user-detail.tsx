"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Card } from "@/components/ui/card";
import { deliveriesSearchPath } from "@/components/deliveries/paths";
import { loadErrorMessage } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";
import { AppUserLink } from "./app-user-link";
import type { AppUser } from "./app-users-table";
import { AttributesCard } from "./attributes-card";
import { DataRightsCard } from "./data-rights-card";
import { appUsersPath } from "./paths";
import { ReferralLinkCard } from "./referral-link-card";
import { UserEventsCard } from "./user-events-card";
import { UserReferralsCard } from "./user-referrals-card";

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500">{label}</dt>
      <dd className="mt-1 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}

function Overview({ projectId, user }: { projectId: string; user: AppUser }) {
  return (
    <Card title="Overview">
      <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-4">
        <Fact label="Referrals given">{user.totalReferralsGiven}</Fact>
        <Fact label="Successful referrals">{user.successfulReferrals}</Fact>
        <Fact label="Referrals received">{user.totalReferralsReceived}</Fact>
        <Fact label="Referred by">
          {user.referredBy ? <AppUserLink projectId={projectId} clientProvidedId={user.referredBy} /> : "—"}
        </Fact>
        <Fact label="First seen">{formatDateTime(user.firstSeenAt)}</Fact>
        <Fact label="Last seen">{formatDateTime(user.lastSeenAt, "Never")}</Fact>
        <Fact label="Created">{formatDateTime(user.createdAt)}</Fact>
        <Fact label="Unique id">
          <code className="font-mono text-xs break-all">{user.uniqueId}</code>
        </Fact>
      </dl>
    </Card>
  );
}

export function AppUserDetail({ projectId, uniqueId }: { projectId: string; uniqueId: string }) {
  const trpc = useTRPC();
  const user = useQuery(trpc.appUsers.get.queryOptions({ projectId, uniqueId }));
  const back = (
    <Link href={appUsersPath(projectId)} className="text-sm text-zinc-500 hover:text-zinc-800">
      ← App users
    </Link>
  );
  if (user.isPending) return <p className="text-sm text-zinc-500">Loading app user…</p>;
  if (user.isError) {
    return (
      <div className="space-y-3">
        <ErrorMessage>{loadErrorMessage(user.error, "app user")}</ErrorMessage>
        {back}
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <div>
        {back}
        <div className="mt-1 flex flex-wrap items-center gap-3">
          <h2 className="text-xl font-semibold break-all text-zinc-900">{user.data.clientProvidedId}</h2>
          {user.data.status && <Badge>{user.data.status}</Badge>}
          <Link href={deliveriesSearchPath(projectId, { q: user.data.clientProvidedId })} className="text-sm text-brand-700 hover:underline">
            Deliveries naming this user
          </Link>
        </div>
      </div>
      <Overview projectId={projectId} user={user.data} />
      <ReferralLinkCard projectId={projectId} user={user.data} />
      {/* Keyed by user: moving to another user starts from their attributes. */}
      <AttributesCard key={user.data.uniqueId} projectId={projectId} user={user.data} />
      <UserReferralsCard projectId={projectId} uniqueId={uniqueId} direction="given" />
      <UserReferralsCard projectId={projectId} uniqueId={uniqueId} direction="received" />
      <UserEventsCard projectId={projectId} uniqueId={uniqueId} />
      <DataRightsCard projectId={projectId} user={user.data} />
    </div>
  );
}
