"use client";

import { useQuery } from "@tanstack/react-query";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { CreateOrganizationForm } from "./create-organization-form";
import { InvitationList } from "./invitation-list";
import { InviteMemberForm } from "./invite-member-form";
import { MemberList } from "./member-list";
import { PermissionTable } from "./permission-table";
import { RenameOrganizationForm } from "./rename-organization-form";

export function OrganizationOverview() {
  const trpc = useTRPC();
  const me = useQuery(trpc.accounts.me.queryOptions());
  const invite = usePermission("members.invite");
  const rename = usePermission("organization.rename");
  if (me.isPending) return <p className="text-sm text-zinc-500">Loading…</p>;
  if (me.isError) return <ErrorMessage>{toFormErrors(me.error).message}</ErrorMessage>;
  const active = me.data.organizations.find((o) => o.id === me.data.activeOrganizationId);
  return (
    <div className="space-y-6">
      {active && (
        <Card title={`Members of ${active.name}`} description={invite.allowed ? "As an owner you manage members, their roles and invitations." : invite.reason}>
          <MemberList currentUserId={me.data.userId} />
        </Card>
      )}
      {active && rename.allowed && (
        <Card title="Organisation name" description="Shown to every member and in invitations.">
          <RenameOrganizationForm key={active.id} name={active.name} />
        </Card>
      )}
      {active && invite.allowed && (
        <>
          <Card title="Invite a member" description="An invitation is accepted once, within 7 days, by an account with the invited, verified address.">
            <InviteMemberForm />
          </Card>
          <Card title="Pending invitations">
            <InvitationList />
          </Card>
        </>
      )}
      <Card title="Roles and permissions" description="What each role may do; the API enforces the same table.">
        <PermissionTable />
      </Card>
      <Card title="Create an organisation" description="A separate workspace with its own projects and API keys. You become its owner.">
        <CreateOrganizationForm />
      </Card>
    </div>
  );
}
