import { TRPCError } from "@trpc/server";
import type { Config } from "@/server/config";
import { requestOrigin } from "@/server/http/public-origin";

/**
 * The base of links put into e-mail (verification, invitations, password reset): the configured
 * public URL (REFERLOOP_PUBLIC_URL, else NEXTAUTH_URL), or outside production mode the origin the
 * request came to. Production mode without one refuses rather than trust a Host header a caller may
 * forge: a password-reset link built on it would carry the token to them.
 */
export function appLinkBase(config: Pick<Config, "publicUrl" | "productionMode">, headers: Headers): string {
  if (config.publicUrl) return config.publicUrl;
  if (config.productionMode) {
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "E-mail links need the public address of the dashboard: set NEXTAUTH_URL." });
  }
  return requestOrigin(headers, "http://localhost:3000");
}

/** The dashboard's paths that e-mailed links open, in one place. */
export const appLinks = {
  verifyEmail: (base: string, token: string) => `${base}/verify-email?token=${encodeURIComponent(token)}`,
  resetPassword: (base: string, token: string) => `${base}/reset-password?token=${encodeURIComponent(token)}`,
  invitation: (base: string, token: string) => `${base}/invitations/${encodeURIComponent(token)}`,
};
