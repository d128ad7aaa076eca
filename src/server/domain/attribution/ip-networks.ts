import { isIP } from "node:net";
import { expandIpv6, normalizeIp } from "@/lib/ip-address";

/**
 * What "the same network" means for two addresses. IPv4: the same address (home routers and carrier
 * NAT put many devices behind one), and the same /24 as "nearby" (carrier NAT pools hand out
 * neighbouring addresses). IPv6: a device's temporary addresses rotate inside its /64, so the /64 is
 * the network; the /48 is a site or a carrier region, "nearby".
 */
export type NetworkKeys = { family: 4 | 6; network: string; prefix: string };

// The matcher asks for every click of the window on every install: remember recent answers.
const memo = new Map<string, NetworkKeys | null>();
const MEMO_SIZE = 50_000;

export function networkKeys(ip: string | null | undefined): NetworkKeys | null {
  if (!ip) return null;
  const known = memo.get(ip);
  if (known !== undefined) return known;
  if (memo.size >= MEMO_SIZE) memo.clear();
  const keys = computeKeys(ip);
  memo.set(ip, keys);
  return keys;
}

function computeKeys(ip: string): NetworkKeys | null {
  const address = normalizeIp(ip);
  if (!address) return null;
  if (isIP(address) === 4) return { family: 4, network: address, prefix: address.slice(0, address.lastIndexOf(".")) };
  const groups = expandIpv6(address).map((g) => g.toString(16));
  return { family: 6, network: groups.slice(0, 4).join(":"), prefix: groups.slice(0, 3).join(":") };
}

export type NetworkRelation = "same" | "nearby" | "other" | "unknown";

/** Different address families count as "other": the same device on the same network keeps its family. */
export function relateNetworks(a: NetworkKeys | null, b: NetworkKeys | null): NetworkRelation {
  if (!a || !b) return "unknown";
  if (a.family !== b.family) return "other";
  if (a.network === b.network) return "same";
  return a.prefix === b.prefix ? "nearby" : "other";
}
