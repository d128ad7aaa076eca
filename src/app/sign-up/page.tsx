import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/auth/auth-shell";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { isSignedIn } from "@/server/dashboard/caller";

export const metadata: Metadata = { title: "Sign up" };

type Props = { searchParams: Promise<{ callbackUrl?: string | string[] }> };

export default async function SignUpPage({ searchParams }: Props) {
  if (await isSignedIn()) redirect("/dashboard");
  const { callbackUrl } = await searchParams;
  return (
    <AuthShell title="Create your account" subtitle="An organisation is created with you as its owner.">
      <SignUpForm callbackUrl={typeof callbackUrl === "string" ? callbackUrl : undefined} />
    </AuthShell>
  );
}
