"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { AppUser } from "./app-users-table";
import { appUsersPath } from "./paths";

/** The user's data rights: download everything held about them, or erase them. */
export function DataRightsCard({ projectId, user }: { projectId: string; user: AppUser }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const erasing = usePermission("appUsers.write");
  const [error, setError] = useState<string | null>(null);
  const ids = { projectId, uniqueId: user.uniqueId };

  const exported = useMutation({
    mutationFn: () => queryClient.fetchQuery({ ...trpc.appUsers.export.queryOptions(ids), staleTime: 0 }),
    onSuccess: (document) => {
      const url = URL.createObjectURL(new Blob([JSON.stringify(document, null, 2)], { type: "application/json" }));
      const link = Object.assign(globalThis.document.createElement("a"), { href: url, download: `app-user-${user.uniqueId}.json` });
      link.click();
      URL.revokeObjectURL(url);
    },
    onError: (e) => setError(toFormErrors(e).message),
  });
  const erase = useMutation(
    trpc.appUsers.erase.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.appUsers.list.queryKey() });
        // The list says what happened: the page this was done on is gone.
        router.push(`${appUsersPath(projectId)}?erased=${encodeURIComponent(user.clientProvidedId)}`);
      },
      onError: (e) => setError(toFormErrors(e).message),
    }),
  );

  return (
    <Card title="Data rights">
      <div className="space-y-4 text-sm text-zinc-700">
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" pending={exported.isPending} onClick={() => exported.mutate()}>
            Download data (JSON)
          </Button>
          <span className="text-zinc-500">Everything held about this user: record, attributes, referrals, rewards, deliveries naming them, landing clicks.</span>
        </div>
        <div className="flex flex-wrap items-center gap-3">
          <ConfirmButton
            variant="danger"
            question={
              <>
                Erase <strong className="break-all">{user.clientProvidedId}</strong>? Their record, attributes and referral link go for good; their referrals stay, showing them as erased.
              </>
            }
            confirmLabel={`Erase ${user.clientProvidedId}`}
            pending={erase.isPending}
            disabledReason={erasing.reason}
            onConfirm={() => erase.mutate(ids)}
          >
            Erase user
          </ConfirmButton>
        </div>
        {error && <ErrorMessage>{error}</ErrorMessage>}
      </div>
    </Card>
  );
}
