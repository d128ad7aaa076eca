"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button, buttonClasses } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { MIN_PASSWORD_LENGTH, passwordSchema } from "@/lib/schemas/password";
import { useTRPC } from "@/lib/trpc";

/** A new password from the e-mailed link; every session of the account ends, so it signs in afresh. */
export function ResetPasswordForm({ token }: { token: string }) {
  const trpc = useTRPC();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const reset = useMutation(trpc.accounts.resetPassword.mutationOptions({ onError: (error) => setErrors(toFormErrors(error, ["newPassword"])) }));

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const newPassword = String(new FormData(event.currentTarget).get("newPassword") ?? "");
    setErrors(noErrors);
    // The server checks the same policy (and that it is not the address); this answers without a round trip.
    const weak = (await passwordSchema.safeParseAsync(newPassword)).error?.issues[0];
    if (weak) return setErrors({ message: null, fields: { newPassword: weak.message } });
    reset.mutate({ token, newPassword });
  }

  if (reset.isSuccess) {
    return (
      <div className="space-y-4">
        <p role="status" className="text-sm text-emerald-700">
          Your password was changed and every session of {reset.data.email} was signed out. Sign in with the new password.
        </p>
        <Link href="/sign-in" className={buttonClasses("primary", "md", "w-full")}>
          Sign in
        </Link>
      </div>
    );
  }
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="Choose a new password">
      <FormField label="New password" error={errors.fields.newPassword} hint={`At least ${MIN_PASSWORD_LENGTH} characters; not a common password or your e-mail address.`}>
        {(p) => <input {...p} name="newPassword" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} className={inputClasses} />}
      </FormField>
      <ErrorMessage>{errors.message}</ErrorMessage>
      <Button type="submit" pending={reset.isPending} disabled={!token} className="w-full">
        Set new password
      </Button>
    </form>
  );
}
