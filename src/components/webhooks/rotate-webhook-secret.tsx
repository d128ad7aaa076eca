"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DateTime } from "@/components/ui/date-time";
import { OverlapSelect, rotationQuestion } from "@/components/ui/overlap-select";
import { SecretOnce } from "@/components/ui/secret-once";
import { toFormErrors } from "@/lib/errors";
import type { OverlapHours } from "@/lib/schemas/rotation";
import { useTRPC } from "@/lib/trpc";
import type { Webhook } from "./types";

/**
 * A new generated secret for the webhook, shown once. With an overlap, deliveries carry both
 * signatures until it ends, so the receiver switches without a failed delivery (replacing the secret
 * in the form above stops the old one at once).
 */
export function RotateWebhookSecret({ projectId, webhook }: { projectId: string; webhook: Webhook }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [overlapHours, setOverlapHours] = useState<OverlapHours>(0);
  const rotate = useMutation(
    trpc.webhooks.rotateSecret.mutationOptions({
      // The list and the webhook's page show the secret's hint.
      onSuccess: () =>
        Promise.all([
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey({ projectId }) }),
          queryClient.invalidateQueries({ queryKey: trpc.webhooks.get.queryKey({ projectId, webhookId: webhook.id }) }),
        ]),
    }),
  );
  return (
    <section aria-labelledby={`rotate-${webhook.id}`} className="mt-6 space-y-3 border-t border-zinc-200 pt-4">
      <h3 id={`rotate-${webhook.id}`} className="text-sm font-semibold text-zinc-900">
        Rotate the secret
      </h3>
      {rotate.data ? (
        <>
          <SecretOnce label={`Webhook secret of ${webhook.name}`} secret={rotate.data.secret} warning={rotate.data.warning} onDismiss={() => rotate.reset()} />
          {rotate.data.previousSecretExpiresAt && (
            <p className="text-sm text-zinc-700">
              Until <DateTime iso={rotate.data.previousSecretExpiresAt} inline /> each delivery is signed with both secrets: switch your receiver before then.
            </p>
          )}
        </>
      ) : (
        <p className="text-sm text-zinc-600">
          The current secret is <code className="font-mono text-xs">{webhook.secretHint}</code>. Rotating generates a new one; the current one stops at once, or
          after the overlap you choose, during which each delivery carries both signatures.
        </p>
      )}
      <OverlapSelect what="secret" value={overlapHours} onChange={setOverlapHours} />
      {rotate.isError && <ErrorMessage>{toFormErrors(rotate.error).message}</ErrorMessage>}
      <ConfirmButton
        question={rotationQuestion("secret", overlapHours)}
        confirmLabel="Rotate now"
        pending={rotate.isPending}
        onConfirm={() => rotate.mutate({ projectId, webhookId: webhook.id, overlapHours })}
      >
        Rotate secret
      </ConfirmButton>
    </section>
  );
}
