import { TRPCError } from "@trpc/server";
import type { Config } from "@/server/config";

/**
 * The base of links put into e-mail (verification, invitations, password reset): NEXTAUTH_URL, or
 * outside production mode the origin the request came to. Production mode without NEXTAUTH_URL
 * refuses rather than trust a Host header a caller may forge (a reset link would carry the token to them).
 */
export function appLinkBase(config: Pick<Config, "publicUrl" | "productionMode">, headers: Headers): string {
  if (config.publicUrl) return config.publicUrl;
  if (config.productionMode) {
    throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "E-mail links need the public address of the dashboard: set NEXTAUTH_URL." });
  }
  const origin = headers.get("origin");
  if (origin && URL.canParse(origin)) return new URL(origin).origin;
  const host = headers.get("x-forwarded-host") ?? headers.get("host") ?? "localhost:3000";
  const proto = headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https" ? "https" : "http";
  return `${proto}://${host}`;
}

/** The dashboard's paths that e-mailed links open, in one place. */
export const appLinks = {
  verifyEmail: (base: string, token: string) => `${base}/verify-email?token=${encodeURIComponent(token)}`,
  resetPassword: (base: string, token: string) => `${base}/reset-password?token=${encodeURIComponent(token)}`,
  invitation: (base: string, token: string) => `${base}/invitations/${encodeURIComponent(token)}`,
};
