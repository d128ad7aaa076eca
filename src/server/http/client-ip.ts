import { BlockList, isIP } from "node:net";
import { z } from "zod";
import { normalizeIp } from "@/lib/ip-address";

/**
 * The client's IP address behind reverse proxies. `X-Forwarded-For` is written by whoever sends the
 * request, so only the hops our own proxies appended can be believed: walk the list from the right
 * (the hop nearest to us) and stop at the first address that is not a trusted proxy. That address
 * is the client. With no trusted proxies configured, the socket's peer is the client and the header
 * is ignored, so a visitor cannot choose the IP a click is recorded with.
 */

/** Named ranges for the configuration, besides literal addresses and CIDRs. */
const NAMED_RANGES: Record<string, Array<[string, number]>> = {
  loopback: [
    ["127.0.0.0", 8],
    ["::1", 128],
  ],
  private: [
    ["10.0.0.0", 8],
    ["172.16.0.0", 12],
    ["192.168.0.0", 16],
    ["100.64.0.0", 10], // carrier-grade NAT space, used inside some clouds' load balancers
    ["fc00::", 7],
  ],
  linklocal: [
    ["169.254.0.0", 16],
    ["fe80::", 10],
  ],
};

export type TrustedProxies = { contains(address: string): boolean; readonly entries: readonly string[] };

/**
 * Parses the trusted-proxy setting: comma- or space-separated addresses, CIDRs and the names
 * `loopback`, `private`, `linklocal`. Throws on an entry it cannot read (a typo must not silently
 * trust nobody, or everybody).
 */
export function parseTrustedProxies(setting: string | null | undefined): TrustedProxies {
  const list = new BlockList();
  const entries = (setting ?? "").split(/[\s,]+/).filter(Boolean);
  for (const entry of entries) {
    const named = NAMED_RANGES[entry.toLowerCase()];
    if (named) {
      for (const [net, prefix] of named) list.addSubnet(net, prefix, isIP(net) === 6 ? "ipv6" : "ipv4");
      continue;
    }
    const [address, prefixText, extra] = entry.split("/");
    const normalized = normalizeIp(address);
    const family = normalized ? isIP(normalized) : 0;
    const max = family === 6 ? 128 : 32;
    const prefix = prefixText === undefined ? max : Number(prefixText);
    if (!normalized || extra !== undefined || (prefixText !== undefined && !/^\d+$/.test(prefixText)) || !Number.isInteger(prefix) || prefix < 0 || prefix > max) {
      throw new Error(`Not an IP address, CIDR or range name: "${entry}"`);
    }
    list.addSubnet(normalized, prefix, family === 6 ? "ipv6" : "ipv4");
  }
  return {
    entries,
    contains(address) {
      const normalized = normalizeIp(address);
      if (!normalized) return false;
      return list.check(normalized, isIP(normalized) === 6 ? "ipv6" : "ipv4");
    },
  };
}

/** For the configuration module: the setting as a zod-validated, parsed value. */
export const trustedProxiesSchema = z
  .string()
  .default("")
  .transform((setting, ctx) => {
    try {
      return parseTrustedProxies(setting);
    } catch (error) {
      ctx.addIssue({ code: "custom", message: (error as Error).message });
      return z.NEVER;
    }
  });

export type ClientIpInput = {
  /** The TCP peer (`socket.remoteAddress`). */
  remoteAddress: string | null | undefined;
  /** Every `X-Forwarded-For` header of the request, joined with commas (as Node and fetch do). */
  forwardedFor: string | null | undefined;
  trustedProxies: TrustedProxies;
};

/** The client's address, normalised; null when the first untrusted hop is not a readable address. */
export function clientIp({ remoteAddress, forwardedFor, trustedProxies }: ClientIpInput): string | null {
  const peer = normalizeIp(remoteAddress);
  if (!peer || !trustedProxies.contains(peer)) return peer;
  const hops = (forwardedFor ?? "")
    .split(",")
    .map((hop) => hop.trim())
    .filter(Boolean);
  let nearest = peer;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = normalizeIp(hops[i]);
    if (!hop) return null; // garbage where the client should be: unknown, never a guess
    if (!trustedProxies.contains(hop)) return hop;
    nearest = hop;
  }
  // Every hop is one of ours (a request from inside): the leftmost is the closest we get to a client.
  return nearest;
}
