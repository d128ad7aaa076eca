"use client";

import { useQuery } from "@tanstack/react-query";
import { Badge } from "@/components/ui/badge";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { ChangePasswordForm } from "./change-password-form";
import { SessionList } from "./session-list";

export function AccountOverview() {
  const trpc = useTRPC();
  const me = useQuery(trpc.accounts.me.queryOptions());
  if (me.isPending) return <p className="text-sm text-zinc-500">Loading…</p>;
  if (me.isError) return <ErrorMessage>{toFormErrors(me.error).message}</ErrorMessage>;
  return (
    <div className="space-y-6">
      <Card title="E-mail address">
        <p className="text-sm text-zinc-800">
          {me.data.email}{" "}
          {me.data.emailVerified ? <Badge tone="green">Verified</Badge> : <Badge tone="amber">Not verified</Badge>}
        </p>
      </Card>
      <Card title="Password" description="Changing it signs out every other device.">
        <ChangePasswordForm email={me.data.email} />
      </Card>
      <Card title="Sessions" description="Devices signed in to this account. Revoking one signs it out on its next request.">
        <SessionList />
      </Card>
    </div>
  );
}
