"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DataTable } from "@/components/ui/data-table";
import { toFormErrors } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { ROLE_LABELS } from "@/lib/permissions";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";

type Invitation = RouterOutputs["invitations"]["list"][number];

/** Pending invitations with their expiry; revoking one makes its link stop working. */
export function InvitationList() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const invitations = useQuery(trpc.invitations.list.queryOptions());
  const revoke = useMutation(
    trpc.invitations.revoke.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.invitations.list.queryKey() }) }),
  );
  if (invitations.isPending) return <p className="text-sm text-zinc-500">Loading invitations…</p>;
  if (invitations.isError) return <ErrorMessage>{toFormErrors(invitations.error).message}</ErrorMessage>;
  return (
    <div className="space-y-3">
      {revoke.isError && <ErrorMessage>{toFormErrors(revoke.error).message}</ErrorMessage>}
      <DataTable<Invitation>
        caption="Pending invitations"
        rows={invitations.data}
        rowKey={(i) => i.id}
        empty="No pending invitations."
        columns={[
          { id: "email", header: "E-mail", cell: (i) => <span className="font-medium text-zinc-900">{i.email}</span> },
          { id: "role", header: "Role", cell: (i) => <Badge>{ROLE_LABELS[i.role]}</Badge> },
          { id: "by", header: "Invited by", cell: (i) => i.invitedBy ?? "—" },
          { id: "expires", header: "Expires", cell: (i) => formatDateTime(i.expiresAt) },
          {
            id: "actions",
            header: "Actions",
            align: "right",
            cell: (i) => (
              <ConfirmButton
                size="sm"
                variant="ghost"
                aria-label={`Revoke the invitation of ${i.email}`}
                question="The link stops working."
                confirmLabel="Revoke"
                pending={revoke.isPending && revoke.variables?.id === i.id}
                onConfirm={() => revoke.mutate({ id: i.id })}
              >
                Revoke
              </ConfirmButton>
            ),
          },
        ]}
      />
    </div>
  );
}
