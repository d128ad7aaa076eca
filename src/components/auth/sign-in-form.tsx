"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { signIn } from "next-auth/react";
import { useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { safeRedirectPath } from "@/lib/safe-redirect";
import { SIGN_IN_REFUSED } from "@/lib/schemas/accounts";

export function SignInForm({ callbackUrl, initialError }: { callbackUrl?: string; initialError?: string }) {
  const router = useRouter();
  const [error, setError] = useState<string | null>(initialError ?? null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    setPending(true);
    setError(null);
    const result = await signIn("credentials", {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      redirect: false,
    }).catch(() => undefined);
    if (!result?.ok) {
      setPending(false);
      setError(
        result?.error === "CredentialsSignin"
          ? "Wrong e-mail or password."
          : result?.error === SIGN_IN_REFUSED
            ? "Too many sign-in attempts. Wait a few minutes, then try again."
            : "Could not sign in. Try again.",
      );
      return;
    }
    router.replace(safeRedirectPath(callbackUrl));
    router.refresh();
  }

  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <FormField label="E-mail">
        {(p) => <input {...p} name="email" type="email" autoComplete="email" required className={inputClasses} />}
      </FormField>
      <FormField label="Password">
        {(p) => <input {...p} name="password" type="password" autoComplete="current-password" required className={inputClasses} />}
      </FormField>
      <ErrorMessage>{error}</ErrorMessage>
      <p className="text-right text-sm">
        <Link href="/forgot-password" className="font-medium text-brand-700 hover:underline">
          Forgot your password?
        </Link>
      </p>
      <Button type="submit" pending={pending} className="w-full">
        Sign in
      </Button>
      <p className="text-center text-sm text-zinc-600">
        No account yet?{" "}
        <Link href={callbackUrl ? `/sign-up?callbackUrl=${encodeURIComponent(callbackUrl)}` : "/sign-up"} className="font-medium text-brand-700 hover:underline">
          Sign up
        </Link>
      </p>
    </form>
  );
}
