import type { Config } from "@/server/config";

const HOST = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;
const first = (value: string | null) => value?.split(",")[0]?.trim() || null;

/**
 * The origin the client used to reach this request: the forwarded host and scheme (Next.js sets both
 * from the socket when no proxy did), else the Host header. Only a well-formed host is taken, so a
 * forged header cannot write markup or paths into the links built on it.
 */
export function requestOrigin(headers: Headers, fallback = "http://localhost"): string {
  const host = first(headers.get("x-forwarded-host")) ?? first(headers.get("host"));
  const proto = first(headers.get("x-forwarded-proto"));
  if (!host || !HOST.test(host)) return fallback;
  return `${proto === "https" ? "https" : "http"}://${host}`;
}

/**
 * The origin public links (referral landing pages, uploaded icons) are built on: REFERLOOP_PUBLIC_URL
 * (else NEXTAUTH_URL) when configured, which production should set, else the request's own origin.
 */
export function publicOrigin(config: Pick<Config, "publicUrl">, headers: Headers): string {
  return config.publicUrl ?? requestOrigin(headers);
}
