import type { Context } from "@/server/api/trpc/procedures";
import { appLinkBase, appLinks } from "@/server/api/trpc/app-links";
import { issueEmailVerification } from "@/server/domain/accounts/email-verification";
import { sendVerificationEmail } from "@/server/mail/send";

/** Issues a verification link for the account and e-mails it; false when already verified. */
export async function sendVerification(ctx: Pick<Context, "db" | "config" | "headers">, userId: string): Promise<boolean> {
  const base = appLinkBase(ctx.config, ctx.headers);
  const issued = await issueEmailVerification(ctx.db, userId);
  if (!issued) return false;
  await sendVerificationEmail({ to: issued.to, link: appLinks.verifyEmail(base, issued.token) }, ctx.config);
  return true;
}
