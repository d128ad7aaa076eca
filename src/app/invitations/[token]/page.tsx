import type { Metadata } from "next";
import Link from "next/link";
import { AuthShell } from "@/components/auth/auth-shell";
import { VerifyEmailBanner } from "@/components/dashboard/verify-email-banner";
import { AcceptInvitationButton } from "@/components/invitations/accept-invitation-button";
import { SwitchAccountButton } from "@/components/invitations/switch-account-button";
import { ErrorMessage } from "@/components/ui/alert";
import { buttonClasses } from "@/components/ui/button";
import { serverContext } from "@/server/dashboard/caller";
import { ROLE_LABELS } from "@/lib/permissions";
import { createCaller } from "@/server/api/root";

export const metadata: Metadata = { title: "Invitation" };

const CLOSED = {
  accepted: "This invitation was already used.",
  revoked: "This invitation was withdrawn. Ask the organisation's owner for a new one.",
  expired: "This invitation has expired. Ask the organisation's owner for a new one.",
} as const;

type Props = { params: Promise<{ token: string }> };

/**
 * The e-mailed invitation link. What it shows depends on who opens it; the accept procedure checks
 * the same things again (single use, expiry, the signed-in account's verified address).
 */
export default async function InvitationPage({ params }: Props) {
  const { token } = await params;
  const context = await serverContext();
  const invitation = await createCaller(context)
    .invitations.get({ token })
    .catch(() => null);
  if (!invitation) {
    return (
      <AuthShell title="Invitation">
        <ErrorMessage>This invitation link is not valid. Check that you opened the whole link from the e-mail.</ErrorMessage>
      </AuthShell>
    );
  }
  const here = `/invitations/${encodeURIComponent(token)}`;
  const actor = context.actor?.kind === "user" ? context.actor : null;
  return (
    <AuthShell title={`Join ${invitation.organizationName}`} subtitle={`${invitation.invitedBy ?? "An owner"} invited ${invitation.email} as ${ROLE_LABELS[invitation.role].toLowerCase()}.`}>
      {invitation.state !== "pending" ? (
        <ErrorMessage>{CLOSED[invitation.state]}</ErrorMessage>
      ) : !actor ? (
        <div className="space-y-3">
          <p className="text-sm text-zinc-700">
            Sign in with <strong className="font-semibold">{invitation.email}</strong>, or create an account with that address, to accept.
          </p>
          <Link href={`/sign-in?callbackUrl=${encodeURIComponent(here)}`} className={buttonClasses("primary", "md", "w-full")}>
            Sign in to accept
          </Link>
          <Link href={`/sign-up?invitation=${encodeURIComponent(token)}`} className={buttonClasses("secondary", "md", "w-full")}>
            Create an account
          </Link>
        </div>
      ) : actor.email !== invitation.email ? (
        <div className="space-y-3">
          <ErrorMessage>
            This invitation is for {invitation.email}; you are signed in as {actor.email}. Only an account with the invited address can accept it.
          </ErrorMessage>
          <SwitchAccountButton callbackUrl={here} />
        </div>
      ) : !actor.emailVerified ? (
        <VerifyEmailBanner email={actor.email} />
      ) : (
        <AcceptInvitationButton token={token} organizationName={invitation.organizationName} />
      )}
    </AuthShell>
  );
}
