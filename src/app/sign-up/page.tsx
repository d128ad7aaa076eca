import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/auth/auth-shell";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { sessionUserId } from "@/server/auth/session";

export const metadata: Metadata = { title: "Sign up" };

export default async function SignUpPage() {
  if (await sessionUserId()) redirect("/dashboard");
  return (
    <AuthShell title="Create your account" subtitle="An organisation is created with you as its owner.">
      <SignUpForm />
    </AuthShell>
  );
}
