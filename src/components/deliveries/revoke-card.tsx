"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DateTime } from "@/components/ui/date-time";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { REVOKE_REASON_MAX_LENGTH, REVOKE_RESULTS } from "@/lib/schemas/referrals";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";

type Detail = RouterOutputs["referrals"]["get"];

const BY: Record<string, string> = { api: "an API key", dashboard: "a person in the dashboard", stripe: "Stripe", revenuecat: "RevenueCat" };

/**
 * A referral's revocation: when, why and by what it was revoked, or (while it has a reward granted
 * or held) the reason and a confirmation to take the reward back.
 */
export function RevokeCard({ projectId, detail }: { projectId: string; detail: Detail }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const permission = usePermission("referrals.write");
  const [reason, setReason] = useState("");
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [done, setDone] = useState<string | null>(null);
  const { referral: r, revocation } = detail;
  const revoke = useMutation(
    trpc.referrals.revoke.mutationOptions({
      onError: (error) => setErrors(toFormErrors(error, ["reason"])),
      onSuccess: async (result) => {
        setDone(`Revoked: ${REVOKE_RESULTS[result.revoked]}.`);
        await queryClient.invalidateQueries({ queryKey: trpc.referrals.get.queryKey({ projectId, trackingId: r.referralTrackingId }) });
      },
    }),
  );
  if (revocation) {
    return (
      <Card title="Revoked">
        <p className="text-sm text-zinc-800">
          Revoked <DateTime iso={revocation.revokedAt} seconds /> by {BY[revocation.revokedBy] ?? revocation.revokedBy}: {revocation.reason}
        </p>
        {done && <StatusMessage>{done}</StatusMessage>}
      </Card>
    );
  }
  if (r.status !== "Completed" && r.status !== "Pending") return null;
  return (
    <Card title="Revoke" description="Take the reward back (a refund, a chargeback, abuse found later): a granted reward is withdrawn and reward.revoked is sent to the webhooks that subscribe to it; a held one is cancelled and never grants.">
      <div className="max-w-2xl space-y-3">
        <FormField label="Reason" error={errors.fields.reason} hint="For people: shown here, in the activity feed and in reward.revoked.">
          {(p) => <input {...p} name="reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={REVOKE_REASON_MAX_LENGTH} className={inputClasses} />}
        </FormField>
        <ErrorMessage>{errors.message}</ErrorMessage>
        <ConfirmButton
          question="The referrer loses this reward, for good. Revoke?"
          confirmLabel="Revoke now"
          variant="danger"
          pending={revoke.isPending}
          disabledReason={permission.reason}
          onConfirm={() => {
            setErrors(noErrors);
            revoke.mutate({ projectId, trackingId: r.referralTrackingId, reason });
          }}
        >
          Revoke reward
        </ConfirmButton>
      </div>
    </Card>
  );
}
