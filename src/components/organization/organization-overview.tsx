"use client";

import { useQuery } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { AddMemberForm } from "./add-member-form";
import { CreateOrganizationForm } from "./create-organization-form";
import { MemberList } from "./member-list";

export function OrganizationOverview() {
  const trpc = useTRPC();
  const me = useQuery(trpc.accounts.me.queryOptions());
  if (me.isPending) return <p className="text-sm text-zinc-500">Loading…</p>;
  if (me.isError) return <ErrorMessage>{toFormErrors(me.error).message}</ErrorMessage>;
  const active = me.data.organizations.find((o) => o.id === me.data.activeOrganizationId);
  const isOwner = me.data.role === "owner";
  return (
    <div className="space-y-6">
      {active && (
        <Card
          title={`Members of ${active.name}`}
          description={isOwner ? "As an owner you can add and remove members." : "Only owners can add or remove members."}
        >
          <MemberList canManage={isOwner} currentUserId={me.data.userId} />
        </Card>
      )}
      {active && isOwner && (
        <Card title="Add a member" description="Owners manage members, keys and projects; members manage keys and projects.">
          <AddMemberForm />
        </Card>
      )}
      <Card title="Create an organisation" description="A separate workspace with its own projects and API keys. You become its owner.">
        <CreateOrganizationForm />
      </Card>
    </div>
  );
}
