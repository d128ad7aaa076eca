import { BlockList, isIP } from "node:net";
import { z } from "zod";

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

/** One address: IPv4-mapped IPv6 as IPv4, IPv6 lower-case without zone; null when not an address. */
export function normalizeIp(raw: string | null | undefined): string | null {
  if (!raw) return null;
  let value = raw.trim();
  // Some proxies append a port: "203.0.113.7:51234", "[2001:db8::1]:443".
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) value = bracketed[1]!;
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(value)) value = value.slice(0, value.lastIndexOf(":"));
  value = value.replace(/%.*$/, "").toLowerCase();
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(value);
  if (mapped) value = mapped[1]!;
  const family = isIP(value);
  if (family === 0) return null;
  return family === 6 ? compressIpv6(expandIpv6(value)) : value;
}

/** The eight 16-bit groups of an IPv6 address (which isIP accepted), as numbers. */
export function expandIpv6(address: string): number[] {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -v4[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill("0");
  return [...left, ...zeros, ...right].map((group) => Number.parseInt(group, 16));
}

function compressIpv6(groups: number[]): string {
  // RFC 5952: the longest run (of two or more) of zero groups becomes "::".
  let best = { start: -1, length: 1 };
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > best.length) best = { start: i, length: j - i };
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (best.start < 0) return hex.join(":");
  return `${hex.slice(0, best.start).join(":")}::${hex.slice(best.start + best.length).join(":")}`;
}

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
