"use client";

import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { SecretOnce } from "@/components/ui/secret-once";
import { usePermission } from "@/components/dashboard/permissions";
import { toFormErrors } from "@/lib/errors";
import { formatDate, formatDateTime } from "@/lib/format";
import { ROLE_LABELS } from "@/lib/permissions";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";

type ApiKey = RouterOutputs["apiKeys"]["list"]["keys"][number];

/** The organisation's keys with their role and creator; who may delete which follows the permission table. */
export function ApiKeyList({ keys, currentUserId, onDeleted }: { keys: ApiKey[]; currentUserId: string; onDeleted?: (id: string) => void }) {
  const trpc = useTRPC();
  const deleteOwn = usePermission("apiKeys.deleteOwn");
  const deleteAny = usePermission("apiKeys.deleteAny");
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.apiKeys.delete.mutationOptions({
      onSuccess: (_result, { id }) => {
        onDeleted?.(id);
        return queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
      },
    }),
  );
  // Rolling: a new key now, the old one valid for a day more, so the systems using it switch without downtime.
  const roll = useMutation(trpc.apiKeys.roll.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() }) }));
  if (!keys.length) {
    return (
      <p className="text-sm text-zinc-500">
        No API keys yet. Create one below for your backend: it calls the REST API with it (see the{" "}
        <Link href="/dashboard/api-reference" className="font-medium text-brand-700 hover:underline">
          API reference
        </Link>
        ).
      </p>
    );
  }
  const now = Date.now();
  const expired = (k: ApiKey) => k.expiresAt !== null && new Date(k.expiresAt).getTime() <= now;
  // A DataTable: on a phone each key is a card, its Roll and Delete in view.
  const columns: Column<ApiKey>[] = [
    { id: "name", header: "Name", cell: (k) => <span className="font-medium text-zinc-900">{k.name}</span> },
    { id: "key", header: "Key", cell: (k) => <span className="font-mono text-xs text-zinc-600">{k.key}</span> },
    {
      id: "role",
      header: "Role",
      cell: (k) => <Badge tone={k.role === "readOnly" ? "neutral" : k.role === "owner" ? "brand" : "blue"}>{ROLE_LABELS[k.role]}</Badge>,
    },
    { id: "createdBy", header: "Created by", cell: (k) => <span className="text-zinc-600">{k.createdBy ?? <span className="text-zinc-500">unknown</span>}</span> },
    { id: "created", header: "Created", cell: (k) => <span className="whitespace-nowrap text-zinc-600">{formatDateTime(k.createdAt)}</span> },
    {
      id: "expires",
      header: "Expires",
      cell: (k) => (
        <span className="whitespace-nowrap text-zinc-600">{expired(k) ? <Badge tone="red">Expired {formatDate(k.expiresAt)}</Badge> : formatDate(k.expiresAt, "Never")}</span>
      ),
    },
    { id: "lastUsed", header: "Last used", cell: (k) => <span className="whitespace-nowrap text-zinc-600">{formatDateTime(k.lastUsedAt, "Never")}</span> },
    {
      id: "actions",
      header: "Actions",
      align: "right",
      cell: (k) =>
        deleteAny.allowed || (deleteOwn.allowed && k.createdById === currentUserId) ? (
          <span className="inline-flex gap-1">
            {!expired(k) && (
              <ConfirmButton
                size="sm"
                variant="ghost"
                aria-label={`Roll API key ${k.name}`}
                question="A new key now; this one keeps working for 24 hours."
                confirmLabel="Roll key"
                pending={roll.isPending && roll.variables?.id === k.id}
                onConfirm={() => roll.mutate({ id: k.id, overlapHours: 24 })}
              >
                Roll
              </ConfirmButton>
            )}
            <ConfirmButton
              size="sm"
              variant="ghost"
              aria-label={`Delete API key ${k.name}`}
              question="Callers using it get 401."
              confirmLabel="Delete key"
              pending={remove.isPending && remove.variables?.id === k.id}
              onConfirm={() => remove.mutate({ id: k.id })}
            >
              Delete
            </ConfirmButton>
          </span>
        ) : (
          <span className="text-xs text-zinc-500" title={deleteOwn.allowed ? deleteAny.reason ?? undefined : deleteOwn.reason ?? undefined}>
            {deleteOwn.allowed ? "Not yours to delete" : "Read only"}
          </span>
        ),
    },
  ];
  return (
    <div className="space-y-3">
      {remove.isError && <ErrorMessage>{toFormErrors(remove.error).message}</ErrorMessage>}
      {roll.isError && <ErrorMessage>{toFormErrors(roll.error).message}</ErrorMessage>}
      {roll.data && (
        <div className="space-y-2">
          <SecretOnce label="API key" secret={roll.data.key} warning={roll.data.warning} onDismiss={() => roll.reset()} />
          {roll.data.previousKeyExpiresAt && <p className="text-sm text-zinc-700">The previous key of {roll.data.name} keeps working until {formatDateTime(roll.data.previousKeyExpiresAt)}.</p>}
        </div>
      )}
      <DataTable caption="API keys" columns={columns} rows={keys} rowKey={(k) => k.id} />
    </div>
  );
}
