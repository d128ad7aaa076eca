import type { Metadata } from "next";
import { AuthShell } from "@/components/auth/auth-shell";
import { VerifyEmailForm } from "@/components/auth/verify-email-form";

export const metadata: Metadata = { title: "Verify your e-mail" };

type Props = { searchParams: Promise<{ token?: string | string[] }> };

export default async function VerifyEmailPage({ searchParams }: Props) {
  const { token } = await searchParams;
  return (
    <AuthShell title="Verify your e-mail address" subtitle="Confirm that the address you signed up with is yours.">
      <VerifyEmailForm token={typeof token === "string" ? token : ""} />
    </AuthShell>
  );
}
