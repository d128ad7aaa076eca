"use client";

import Link from "next/link";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";

/** Asks for a reset link; the answer is the same whether or not an account has the address. */
export function ForgotPasswordForm() {
  const trpc = useTRPC();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const request = useMutation(
    trpc.accounts.requestPasswordReset.mutationOptions({ onError: (error) => setErrors(toFormErrors(error, ["email"])), onSuccess: () => setErrors(noErrors) }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    request.mutate({ email: String(new FormData(event.currentTarget).get("email") ?? "") });
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate aria-label="Reset your password">
      <FormField label="E-mail" error={errors.fields.email}>
        {(p) => <input {...p} name="email" type="email" autoComplete="email" required className={inputClasses} />}
      </FormField>
      <ErrorMessage>{errors.message}</ErrorMessage>
      {request.isSuccess && <StatusMessage>{request.data.message}</StatusMessage>}
      <Button type="submit" pending={request.isPending} className="w-full">
        Send reset link
      </Button>
      <p className="text-center text-sm text-zinc-600">
        <Link href="/sign-in" className="font-medium text-brand-700 hover:underline">
          Back to sign in
        </Link>
      </p>
    </form>
  );
}
