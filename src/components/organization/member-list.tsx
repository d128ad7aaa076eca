"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Fragment, useState } from "react";
import type { MemberRole } from "@/generated/prisma/enums";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { toFormErrors } from "@/lib/errors";
import { formatDate } from "@/lib/format";
import { ROLE_LABELS } from "@/lib/permissions";
import { MEMBER_ROLES } from "@/lib/schemas/accounts";
import { useTRPC } from "@/lib/trpc";
import { RemoveMemberDialog } from "./remove-member-dialog";

export function MemberList({ currentUserId }: { currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const canRemove = usePermission("members.remove").allowed;
  const canChangeRole = usePermission("members.changeRole").allowed;
  const [removing, setRemoving] = useState<string | null>(null);
  // A role picked in a member's select, waiting for the owner to confirm it.
  const [pendingRole, setPendingRole] = useState<{ userId: string; email: string; from: MemberRole; to: MemberRole } | null>(null);
  const members = useQuery(trpc.organizations.members.queryOptions());
  const changeRole = useMutation(
    trpc.organizations.changeRole.mutationOptions({
      onSuccess: async () => {
        setPendingRole(null);
        await queryClient.invalidateQueries({ queryKey: trpc.organizations.members.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        // Your own role may have changed: the layout reads it for every control.
        router.refresh();
      },
    }),
  );
  if (members.isPending) return <p className="text-sm text-zinc-500">Loading members…</p>;
  if (members.isError) return <ErrorMessage>{toFormErrors(members.error).message}</ErrorMessage>;
  const manage = canRemove || canChangeRole;
  return (
    <div className="space-y-3">
      {changeRole.isError && <ErrorMessage>{toFormErrors(changeRole.error).message}</ErrorMessage>}
      <div className="relative overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Members</caption>
          <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">Member</th>
              <th scope="col" className="py-2 pr-4 font-medium">Role</th>
              <th scope="col" className="py-2 pr-4 font-medium">Joined</th>
              {manage && <th scope="col" className="py-2 font-medium"><span className="sr-only">Actions</span></th>}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {members.data.map((m) => (
              <Fragment key={m.userId}>
                <tr>
                  <td className="py-2.5 pr-4">
                    <p className="font-medium text-zinc-900">
                      {m.email}
                      {m.userId === currentUserId && <span className="ml-2 text-xs font-normal text-zinc-500">(you)</span>}
                    </p>
                    {m.name && <p className="text-xs text-zinc-500">{m.name}</p>}
                  </td>
                  <td className="py-2.5 pr-4">
                    {canChangeRole ? (
                      <select
                        aria-label={`Role of ${m.email}`}
                        value={pendingRole?.userId === m.userId ? pendingRole.to : m.role}
                        disabled={changeRole.isPending}
                        onChange={(e) => {
                          const to = e.target.value as MemberRole;
                          setPendingRole(to === m.role ? null : { userId: m.userId, email: m.email, from: m.role, to });
                        }}
                        className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm"
                      >
                        {MEMBER_ROLES.map((role) => (
                          <option key={role} value={role}>
                            {ROLE_LABELS[role]}
                          </option>
                        ))}
                      </select>
                    ) : (
                      <Badge tone={m.role === "owner" ? "brand" : "neutral"}>{ROLE_LABELS[m.role]}</Badge>
                    )}
                  </td>
                  <td className="py-2.5 pr-4 whitespace-nowrap text-zinc-600">{formatDate(m.joinedAt)}</td>
                  {manage && (
                    <td className="py-2.5 text-right">
                      {canRemove && (
                        <Button size="sm" variant="ghost" aria-label={`Remove ${m.email}`} onClick={() => setRemoving(m.userId)} disabled={removing === m.userId}>
                          Remove
                        </Button>
                      )}
                    </td>
                  )}
                </tr>
                {pendingRole?.userId === m.userId && (
                  <tr>
                    <td colSpan={4} className="pb-3">
                      <div role="group" aria-label={`Change the role of ${m.email}`} className="flex flex-wrap items-center gap-2 rounded-md border border-amber-200 bg-amber-50 px-3 py-2">
                        <p className="text-sm text-amber-900">
                          Change {m.email} from {ROLE_LABELS[pendingRole.from].toLowerCase()} to {ROLE_LABELS[pendingRole.to].toLowerCase()}?
                          {m.userId === currentUserId && pendingRole.from === "owner" && " You will lose the owner's controls."}
                        </p>
                        <Button size="sm" pending={changeRole.isPending} onClick={() => changeRole.mutate({ userId: m.userId, role: pendingRole.to })}>
                          Change role
                        </Button>
                        <Button size="sm" variant="ghost" onClick={() => setPendingRole(null)}>
                          Cancel
                        </Button>
                      </div>
                    </td>
                  </tr>
                )}
                {removing === m.userId && (
                  <tr>
                    <td colSpan={4} className="pb-3">
                      <RemoveMemberDialog userId={m.userId} isSelf={m.userId === currentUserId} onClose={() => setRemoving(null)} />
                    </td>
                  </tr>
                )}
              </Fragment>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
