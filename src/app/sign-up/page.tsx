import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { AuthShell } from "@/components/auth/auth-shell";
import { SignUpForm } from "@/components/auth/sign-up-form";
import { ROLE_LABELS } from "@/lib/permissions";
import { createCaller } from "@/server/api/root";
import { isSignedIn, serverContext } from "@/server/dashboard/caller";

export const metadata: Metadata = { title: "Sign up" };

type Props = { searchParams: Promise<{ callbackUrl?: string | string[]; invitation?: string | string[] }> };

/**
 * Sign-up creates an organisation; from an invitation's link (`?invitation=<token>`) it joins the
 * invited one instead, with the invited address, and creates none.
 */
export default async function SignUpPage({ searchParams }: Props) {
  if (await isSignedIn()) redirect("/dashboard");
  const { callbackUrl, invitation: token } = await searchParams;
  const invitation =
    typeof token === "string"
      ? await createCaller(await serverContext())
          .invitations.get({ token })
          .catch(() => null)
      : null;
  if (invitation?.state === "pending" && typeof token === "string") {
    return (
      <AuthShell title={`Join ${invitation.organizationName}`} subtitle={`Create your account to join as ${ROLE_LABELS[invitation.role].toLowerCase()}.`}>
        <SignUpForm invitation={{ token, email: invitation.email }} callbackUrl={`/invitations/${encodeURIComponent(token)}`} />
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Create your account" subtitle="An organisation is created with you as its owner.">
      <SignUpForm callbackUrl={typeof callbackUrl === "string" ? callbackUrl : undefined} />
    </AuthShell>
  );
}
