"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";

/**
 * Verifies on a click, not on load: mail scanners that open links must not use the single-use token
 * up before the person does.
 */
export function VerifyEmailForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const verify = useMutation(trpc.accounts.verifyEmail.mutationOptions());
  if (verify.isSuccess) {
    return (
      <div className="space-y-4">
        <p role="status" className="text-sm text-emerald-700">
          {verify.data.email} is verified. You can now accept invitations sent to it.
        </p>
        <Link href="/dashboard" className={buttonClasses("primary", "md", "w-full")}>
          Go to the dashboard
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-4">
      {verify.isError && <ErrorMessage>{toFormErrors(verify.error).message}</ErrorMessage>}
      <Button className="w-full" pending={verify.isPending} disabled={!token} onClick={() => verify.mutate({ token })}>
        Verify my e-mail address
      </Button>
    </div>
  );
}
