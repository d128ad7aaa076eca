"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useMutation } from "@tanstack/react-query";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { safeRedirectPath } from "@/lib/safe-redirect";
import { useTRPC } from "@/lib/trpc";
import { MIN_PASSWORD_LENGTH, newPasswordInput } from "@/lib/schemas/password";

const FIELDS = ["email", "password", "name", "organizationName", "invitationToken"] as const;

/** `invitation`: sign up to join that organisation, with the invited address, instead of creating one. */
export function SignUpForm({ callbackUrl, invitation }: { callbackUrl?: string; invitation?: { token: string; email: string } }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [signingIn, setSigningIn] = useState(false);
  const signUp = useMutation(trpc.accounts.signUp.mutationOptions());

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const email = invitation?.email ?? String(form.get("email") ?? "");
    const password = String(form.get("password") ?? "");
    setErrors(noErrors);
    // The server checks the same rules; checking here first answers without a round trip.
    const weak = (await newPasswordInput.safeParseAsync({ email, password })).error?.issues[0];
    if (weak) {
      setErrors({ message: null, fields: { password: weak.message } });
      return;
    }
    try {
      await signUp.mutateAsync({
        email,
        password,
        name: String(form.get("name") ?? "").trim() || null,
        ...(invitation ? { invitationToken: invitation.token } : { organizationName: String(form.get("organizationName") ?? "") }),
      });
    } catch (error) {
      setErrors(toFormErrors(error, FIELDS));
      return;
    }
    setSigningIn(true);
    const result = await signIn("credentials", { email, password, redirect: false }).catch(() => undefined);
    if (!result?.ok) {
      setSigningIn(false);
      setErrors({ message: "Your account was created, but signing in failed. Sign in to continue.", fields: {} });
      return;
    }
    router.replace(invitation ? "/dashboard" : safeRedirectPath(callbackUrl));
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <FormField label="E-mail" error={errors.fields.email}>
        {(p) =>
          invitation ? (
            <input {...p} name="email" type="email" value={invitation.email} readOnly className={`${inputClasses} bg-zinc-50`} />
          ) : (
            <input {...p} name="email" type="email" autoComplete="email" required className={inputClasses} />
          )
        }
      </FormField>
      <FormField
        label="Password"
        error={errors.fields.password}
        hint={`At least ${MIN_PASSWORD_LENGTH} characters; not a common password or your e-mail address.`}
      >
        {(p) => (
          <input {...p} name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} className={inputClasses} />
        )}
      </FormField>
      <FormField label="Your name" optional error={errors.fields.name}>
        {(p) => <input {...p} name="name" autoComplete="name" className={inputClasses} />}
      </FormField>
      {!invitation && (
        <FormField label="Organisation name" error={errors.fields.organizationName} hint="Your company or team.">
          {(p) => <input {...p} name="organizationName" autoComplete="organization" required className={inputClasses} />}
        </FormField>
      )}
      <ErrorMessage>{errors.message}</ErrorMessage>
      <Button type="submit" pending={signUp.isPending || signingIn} className="w-full">
        Create account
      </Button>
      <p className="text-center text-sm text-zinc-600">
        Already have an account?{" "}
        <Link href={callbackUrl ? `/sign-in?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/sign-in"} className="font-medium text-brand-700 hover:underline">
          Sign in
        </Link>
      </p>
    </form>
  );
}
