import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/auth/auth-shell";
import { SignInForm } from "@/components/auth/sign-in-form";
import { isSignedIn } from "@/server/dashboard/caller";

export const metadata: Metadata = { title: "Sign in" };

type Props = { searchParams: Promise<{ callbackUrl?: string | string[]; error?: string | string[] }> };

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

export default async function SignInPage({ searchParams }: Props) {
  if (await isSignedIn()) redirect("/dashboard");
  const params = await searchParams;
  // next-auth redirects here with ?error=... when a sign-in fails outside this form.
  const error = first(params.error);
  return (
    <AuthShell title="Sign in" subtitle="Welcome back. Sign in to manage your referral programmes.">
      <SignInForm
        callbackUrl={first(params.callbackUrl)}
        initialError={error ? (error === "CredentialsSignin" ? "Wrong e-mail or password." : "Could not sign in. Try again.") : undefined}
      />
    </AuthShell>
  );
}
