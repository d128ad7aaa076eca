import { invitationEmail, passwordResetEmail, verificationEmail } from "./templates";
import { sendMail } from "./transport";

/** One function per message the service sends; each returns the Message-ID. */

export async function sendVerificationEmail(input: { to: string; link: string }): Promise<string> {
  return sendMail({ to: input.to, ...verificationEmail(input) });
}

export async function sendInvitationEmail(input: {
  to: string;
  inviter: string;
  organization: string;
  role: string;
  link: string;
  expiresAt: Date;
}): Promise<string> {
  return sendMail({ to: input.to, ...invitationEmail(input) });
}

export async function sendPasswordResetEmail(input: { to: string; link: string; expiresAt: Date }): Promise<string> {
  return sendMail({ to: input.to, ...passwordResetEmail(input) });
}
