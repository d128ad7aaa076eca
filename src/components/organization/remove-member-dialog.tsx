"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { toFormErrors } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { API_KEY_ROLE_LABELS } from "@/lib/permissions";
import { useTRPC } from "@/lib/trpc";

/**
 * The confirmation of a removal, with the API keys it revokes in front of the owner. The removal
 * revokes every key of the member, also one created after this list was shown: the answer names those,
 * and the dialog shows them before it closes, so no key is revoked unseen.
 */
export function RemoveMemberDialog({ userId, isSelf, onClose }: { userId: string; isSelf: boolean; onClose: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const router = useRouter();
  const preview = useQuery({ ...trpc.organizations.removalPreview.queryOptions({ userId }), staleTime: 0 });
  const [lateKeys, setLateKeys] = useState<{ id: string; name: string }[] | null>(null);
  const remove = useMutation(
    trpc.organizations.removeMember.mutationOptions({
      onSuccess: async ({ unconfirmedApiKeys }) => {
        if (isSelf) {
          // You left: the dashboard falls back to another organisation of yours.
          queryClient.clear();
          router.push("/dashboard");
          router.refresh();
          return;
        }
        await queryClient.invalidateQueries({ queryKey: trpc.organizations.members.queryKey() });
        await queryClient.invalidateQueries({ queryKey: trpc.apiKeys.list.queryKey() });
        if (unconfirmedApiKeys.length) setLateKeys(unconfirmedApiKeys);
        else onClose();
      },
      onError: () => preview.refetch(),
    }),
  );
  if (lateKeys) {
    return (
      <section role="dialog" aria-label="Member removed" className="space-y-3 rounded-md border border-amber-200 bg-amber-50/40 p-4 text-left">
        <p className="text-sm text-zinc-800">
          Removed. These API keys were created after the list was shown, and were revoked too (callers using them get 401):
        </p>
        <ul aria-label="Also revoked" className="list-disc space-y-0.5 pl-5 text-sm text-zinc-700">
          {lateKeys.map((k) => (
            <li key={k.id} className="font-medium">
              {k.name}
            </li>
          ))}
        </ul>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Close
        </Button>
      </section>
    );
  }
  if (preview.isPending) return <p className="text-sm text-zinc-500">Looking up the member&apos;s API keys…</p>;
  if (preview.isError) return <ErrorMessage>{toFormErrors(preview.error).message}</ErrorMessage>;
  const { email, apiKeys } = preview.data;
  return (
    <section role="dialog" aria-label={`Remove ${email}`} className="space-y-3 rounded-md border border-red-200 bg-red-50/40 p-4 text-left">
      <p className="text-sm text-zinc-800">
        Remove <strong className="font-semibold">{email}</strong> from the organisation?{" "}
        {isSelf ? "You will lose access at once." : "Their access ends at once."}
      </p>
      {apiKeys.length ? (
        <div className="text-sm">
          <p className="font-medium text-zinc-800">These API keys they created will be revoked (callers using them get 401):</p>
          <ul aria-label="API keys to revoke" className="mt-1 list-disc space-y-0.5 pl-5 text-zinc-700">
            {apiKeys.map((k) => (
              <li key={k.id}>
                <span className="font-medium">{k.name}</span> <code className="font-mono text-xs">{k.keyPrefix}…</code> · {API_KEY_ROLE_LABELS[k.role].split(":")[0]} · last used{" "}
                {formatDateTime(k.lastUsedAt, "never")}
              </li>
            ))}
          </ul>
        </div>
      ) : (
        <p className="text-sm text-zinc-700">They created no API keys.</p>
      )}
      {remove.isError && <ErrorMessage>{toFormErrors(remove.error).message}</ErrorMessage>}
      <div className="flex flex-wrap gap-2">
        <Button variant="danger" size="sm" pending={remove.isPending} onClick={() => remove.mutate({ userId, revokeApiKeyIds: apiKeys.map((k) => k.id) })}>
          {apiKeys.length ? `Remove and revoke ${apiKeys.length} key${apiKeys.length === 1 ? "" : "s"}` : "Remove member"}
        </Button>
        <Button variant="ghost" size="sm" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </section>
  );
}
