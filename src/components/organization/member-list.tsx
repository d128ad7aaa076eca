"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { toFormErrors } from "@/lib/errors";
import { formatDate } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";

export function MemberList({ canManage, currentUserId }: { canManage: boolean; currentUserId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.organizations.members.queryOptions());
  const remove = useMutation(
    trpc.organizations.removeMember.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.organizations.members.queryKey() }),
    }),
  );
  if (members.isPending) return <p className="text-sm text-zinc-500">Loading members…</p>;
  if (members.isError) return <ErrorMessage>{toFormErrors(members.error).message}</ErrorMessage>;
  return (
    <div className="space-y-3">
      {remove.isError && <ErrorMessage>{toFormErrors(remove.error).message}</ErrorMessage>}
      <div className="overflow-x-auto">
        <table className="w-full text-left text-sm">
          <caption className="sr-only">Members</caption>
          <thead className="border-b border-zinc-200 text-xs uppercase tracking-wide text-zinc-500">
            <tr>
              <th scope="col" className="py-2 pr-4 font-medium">Member</th>
              <th scope="col" className="py-2 pr-4 font-medium">Role</th>
              <th scope="col" className="py-2 pr-4 font-medium">Joined</th>
              {canManage && <th scope="col" className="py-2 font-medium"><span className="sr-only">Actions</span></th>}
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-100">
            {members.data.map((m) => (
              <tr key={m.userId}>
                <td className="py-2.5 pr-4">
                  <p className="font-medium text-zinc-900">
                    {m.email}
                    {m.userId === currentUserId && <span className="ml-2 text-xs font-normal text-zinc-500">(you)</span>}
                  </p>
                  {m.name && <p className="text-xs text-zinc-500">{m.name}</p>}
                </td>
                <td className="py-2.5 pr-4">
                  <Badge tone={m.role === "owner" ? "brand" : "neutral"}>{m.role === "owner" ? "Owner" : "Member"}</Badge>
                </td>
                <td className="py-2.5 pr-4 whitespace-nowrap text-zinc-600">{formatDate(m.joinedAt)}</td>
                {canManage && (
                  <td className="py-2.5 text-right">
                    <ConfirmButton
                      size="sm"
                      variant="ghost"
                      aria-label={`Remove ${m.email}`}
                      question={m.userId === currentUserId ? "You will lose access." : "Remove from the organisation?"}
                      confirmLabel="Remove"
                      pending={remove.isPending && remove.variables?.userId === m.userId}
                      onConfirm={() => remove.mutate({ userId: m.userId })}
                    >
                      Remove
                    </ConfirmButton>
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
