"use client";

import { useMutation } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { useDismissed } from "@/components/ui/use-dismissed";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";

/** Shown until the address is verified (invitations need a verified address), unless dismissed in this browser. */
export function VerifyEmailBanner({ email }: { email: string }) {
  const trpc = useTRPC();
  const resend = useMutation(trpc.accounts.resendVerification.mutationOptions());
  const [dismissed, dismiss] = useDismissed(`verify-email:${email}`);
  if (dismissed) return null;
  return (
    <div role="region" aria-label="E-mail verification" className="mb-6 flex flex-wrap items-center gap-3 rounded-md border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
      <p className="flex-1">
        Verify your e-mail address <strong className="font-semibold">{email}</strong>: follow the link we sent. Until then you cannot accept invitations.
      </p>
      {resend.isSuccess ? (
        <p role="status">{resend.data.sent ? "Sent. Check your inbox." : "Your address is already verified."}</p>
      ) : (
        <Button size="sm" variant="secondary" pending={resend.isPending} onClick={() => resend.mutate()}>
          Send the link again
        </Button>
      )}
      {resend.isError && <p role="alert">{toFormErrors(resend.error).message}</p>}
      <Button size="sm" variant="ghost" onClick={dismiss} aria-label="Dismiss the verification reminder">
        Dismiss
      </Button>
    </div>
  );
}
