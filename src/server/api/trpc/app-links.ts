import { TRPCError } from "@trpc/server";
import type { Config } from "@/server/config";
import { requestOrigin } from "@/server/http/public-origin";

/**
 * The base of links put into e-mail (verification, invitations, password reset): the configured
 * public URL (REFERLOOP_PUBLIC_URL, else NEXTAUTH_URL), or with REFERLOOP_ALLOW_HOST_LINKS the origin
 * the request came to. Without either it refuses rather than trust a Host header a caller may forge:
 * a password-reset link built on it would carry the token to them.
 */
export function appLinkBase(config: Pick<Config, "publicUrl" | "hostLinks">, headers: Headers): string {
  if (config.publicUrl) return config.publicUrl;
  if (!config.hostLinks) {
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "E-mail links need the public address of the dashboard: set NEXTAUTH_URL." });
  }
  return requestOrigin(headers, "http://localhost:3000");
}

/** The dashboard's paths that e-mailed links open, in one place. */
export const appLinks = {
  verifyEmail: (base: string, token: string) => `${base}/verify-email?token=${encodeURIComponent(token)}`,
  resetPassword: (base: string, token: string) => `${base}/reset-password?token=${encodeURIComponent(token)}`,
  invitation: (base: string, token: string) => `${base}/invitations/${encodeURIComponent(token)}`,
  webhook: (base: string, projectId: string, webhookId: string) =>
    `${base}/dashboard/projects/${encodeURIComponent(projectId)}/webhooks/${encodeURIComponent(webhookId)}`,
};
