import { invitationEmail, passwordResetEmail, verificationEmail, webhookDisabledEmail, webhookFailingEmail } from "./templates";
import { sendMail, type MailConfig } from "./transport";

/** One function per message the service sends; each returns the Message-ID. */

export async function sendVerificationEmail(input: { to: string; link: string }, config?: MailConfig): Promise<string> {
  return sendMail({ to: input.to, ...verificationEmail(input) }, config);
}

export async function sendInvitationEmail(input: {
  to: string;
  inviter: string;
  organization: string;
  role: string;
  link: string;
  expiresAt: Date;
}, config?: MailConfig): Promise<string> {
  return sendMail({ to: input.to, ...invitationEmail(input) }, config);
}

export async function sendPasswordResetEmail(input: { to: string; link: string; expiresAt: Date }, config?: MailConfig): Promise<string> {
  return sendMail({ to: input.to, ...passwordResetEmail(input) }, config);
}

export async function sendWebhookFailingEmail(input: { to: string } & Parameters<typeof webhookFailingEmail>[0], config?: MailConfig): Promise<string> {
  return sendMail({ to: input.to, ...webhookFailingEmail(input) }, config);
}

export async function sendWebhookDisabledEmail(input: { to: string } & Parameters<typeof webhookDisabledEmail>[0], config?: MailConfig): Promise<string> {
  return sendMail({ to: input.to, ...webhookDisabledEmail(input) }, config);
}
