import type { Metadata } from "next";
import { connection } from "next/server";
import { AuthShell } from "@/components/auth/auth-shell";
import { ForgotPasswordForm } from "@/components/auth/forgot-password-form";

export const metadata: Metadata = { title: "Forgot your password" };

export default async function ForgotPasswordPage() {
  // Rendered per request: the CSP nonce of this response must be on the page's scripts.
  await connection();
  return (
    <AuthShell title="Forgot your password?" subtitle="We e-mail you a link to choose a new one. It works once, for one hour.">
      <ForgotPasswordForm />
    </AuthShell>
  );
}
