"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { signOut } from "next-auth/react";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DataTable } from "@/components/ui/data-table";
import { IpAddress } from "@/components/ui/ip-address";
import { toFormErrors } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { describeUserAgent } from "./describe-user-agent";

type Session = RouterOutputs["accounts"]["sessions"][number];

/** Where the account is signed in; any session can be ended, or all of them at once. */
export function SessionList() {
  const trpc = useTRPC();
  const router = useRouter();
  const queryClient = useQueryClient();
  const sessions = useQuery(trpc.accounts.sessions.queryOptions());
  const leave = async () => {
    // The server ended this session too; clear the cookie and go.
    await signOut({ redirect: false });
    queryClient.clear();
    router.replace("/sign-in");
    router.refresh();
  };
  const revoke = useMutation(
    trpc.accounts.revokeSession.mutationOptions({
      onSuccess: (_r, { sessionId }) =>
        sessions.data?.find((s) => s.id === sessionId)?.current ? leave() : queryClient.invalidateQueries({ queryKey: trpc.accounts.sessions.queryKey() }),
    }),
  );
  const everywhere = useMutation(trpc.accounts.signOutEverywhere.mutationOptions({ onSuccess: leave }));
  if (sessions.isPending) return <p className="text-sm text-zinc-500">Loading sessions…</p>;
  if (sessions.isError) return <ErrorMessage>{toFormErrors(sessions.error).message}</ErrorMessage>;
  return (
    <div className="space-y-4">
      {(revoke.isError || everywhere.isError) && <ErrorMessage>{toFormErrors(revoke.error ?? everywhere.error).message}</ErrorMessage>}
      <DataTable<Session>
        caption="Sessions"
        rows={sessions.data}
        rowKey={(s) => s.id}
        columns={[
          {
            id: "device",
            header: "Device",
            cell: (s) => (
              <span className="text-zinc-900" title={s.userAgent ?? undefined}>
                {describeUserAgent(s.userAgent)} {s.current && <Badge tone="green">This device</Badge>}
              </span>
            ),
          },
          { id: "address", header: "IP address", cell: (s) => <IpAddress value={s.ipAddress} /> },
          { id: "signedIn", header: "Signed in", cell: (s) => formatDateTime(s.createdAt) },
          { id: "lastSeen", header: "Last seen", cell: (s) => formatDateTime(s.lastSeenAt) },
          {
            id: "actions",
            header: "Actions",
            align: "right",
            cell: (s) => (
              <ConfirmButton
                size="sm"
                variant="ghost"
                aria-label={`Revoke session: ${describeUserAgent(s.userAgent)}${s.current ? " (this device)" : ""}`}
                question={s.current ? "You will be signed out here." : "That device is signed out."}
                confirmLabel="Revoke"
                pending={revoke.isPending && revoke.variables?.sessionId === s.id}
                onConfirm={() => revoke.mutate({ sessionId: s.id })}
              >
                Revoke
              </ConfirmButton>
            ),
          },
        ]}
      />
      <ConfirmButton
        variant="danger"
        question="Every device, this one included, is signed out."
        confirmLabel="Sign out everywhere"
        pending={everywhere.isPending}
        onConfirm={() => everywhere.mutate()}
      >
        Sign out everywhere
      </ConfirmButton>
    </div>
  );
}
