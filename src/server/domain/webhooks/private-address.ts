import { BlockList, isIPv4, isIPv6 } from "node:net";

/**
 * Addresses a webhook may not reach unless WEBHOOK_ALLOW_PRIVATE_URLS: loopback, private, link-local (cloud metadata
 * at 169.254.169.254 included), unique-local, CGNAT (Alibaba metadata at 100.100.100.200 included),
 * multicast, reserved and documentation ranges. An IPv6 address that embeds an IPv4 one is judged by
 * both (embeddedIPv4).
 */
const nonPublic = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  nonPublic.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  ["::", 96], // unspecified, loopback and the deprecated IPv4-compatible form
  ["64:ff9b:1::", 48], // local-use NAT64
  ["100::", 64], // discard-only
  ["2001::", 32], // Teredo: tunnels to an arbitrary IPv4 address
  ["2001:db8::", 32],
  ["fc00::", 7], // unique-local (AWS metadata at fd00:ec2::254 included)
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  nonPublic.addSubnet(net, prefix, "ipv6");
}

/** The eight 16-bit groups of an IPv6 address (a trailing dotted IPv4 part is accepted). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dotted = text.match(/(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split(".").map(Number) as [number, number, number, number];
    text = text.slice(0, -dotted[1]!.length) + `${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split("::") as [string, string | undefined];
  const parse = (part: string | undefined) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}

const ipv4FromGroups = (high: number, low: number) => `${high >> 8}.${high & 255}.${low >> 8}.${low & 255}`;

const not16 = (group: number) => ~group & 0xffff;

/**
 * Every IPv4 address an IPv6 one carries, by each embedding form: IPv4-compatible (::/96),
 * IPv4-mapped (::ffff:0:0/96), IPv4-translated (::ffff:0:0:0/96), NAT64 (64:ff9b::/96 and the
 * local-use 64:ff9b:1::/48, address in the last 32 bits), 6to4 (2002::/16) and Teredo (2001::/32:
 * its server, and its client with the bits inverted). Each is judged by the IPv4 rules too, so
 * `[::a9fe:a9fe]` is the metadata address it carries whatever the IPv6 rules say.
 */
function embeddedIPv4(address: string): string[] {
  const g = ipv6Groups(address);
  const zero = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  const carried: string[] = [];
  if (zero(0, 5) && (g[5] === 0 || g[5] === 0xffff)) carried.push(ipv4FromGroups(g[6]!, g[7]!));
  if (zero(0, 4) && g[4] === 0xffff && g[5] === 0) carried.push(ipv4FromGroups(g[6]!, g[7]!));
  if (g[0] === 0x64 && g[1] === 0xff9b && (zero(2, 6) || g[2] === 1)) carried.push(ipv4FromGroups(g[6]!, g[7]!));
  if (g[0] === 0x2002) carried.push(ipv4FromGroups(g[1]!, g[2]!));
  if (g[0] === 0x2001 && g[1] === 0) carried.push(ipv4FromGroups(g[2]!, g[3]!), ipv4FromGroups(not16(g[6]!), not16(g[7]!)));
  return carried;
}

/**
 * Refused even where private targets are allowed (WEBHOOK_ALLOW_PRIVATE_URLS): link-local ranges and
 * the cloud metadata services, whose credentials a webhook must never be able to fetch. A test's or a
 * developer's receiver lives on loopback or a private network, never here.
 */
const metadata = new BlockList();
metadata.addSubnet("169.254.0.0", 16, "ipv4"); // link-local: AWS, GCP, Azure, OpenStack metadata
metadata.addAddress("100.100.100.200", "ipv4"); // Alibaba Cloud metadata
metadata.addSubnet("fe80::", 10, "ipv6"); // link-local
metadata.addAddress("fd00:ec2::254", "ipv6"); // AWS metadata over IPv6

function matches(list: BlockList, address: string): boolean {
  if (isIPv4(address)) return list.check(address, "ipv4");
  const bare = address.split("%")[0]!; // a zone index (fe80::1%eth0) only names the interface
  if (!isIPv6(bare)) return true;
  if (list.check(bare, "ipv6")) return true;
  return embeddedIPv4(bare).some((inner) => list.check(inner, "ipv4"));
}

/** True for any address that is not a public unicast address (and for anything that is not an IP). */
export const isNonPublicAddress = (address: string): boolean => matches(nonPublic, address);

/** True for link-local and cloud metadata addresses (and for anything that is not an IP): refused whatever is set. */
export const isMetadataAddress = (address: string): boolean => matches(metadata, address);
