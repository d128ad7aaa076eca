import { describe, expect, it } from "vitest";
import { normalizeIp } from "@/lib/ip-address";
import { clientIp, parseTrustedProxies, trustedProxiesSchema } from "./client-ip";

describe("normalizeIp", () => {
  it.each([
    ["203.0.113.7", "203.0.113.7"],
    [" 203.0.113.7 ", "203.0.113.7"],
    ["203.0.113.7:51234", "203.0.113.7"],
    ["::ffff:203.0.113.7", "203.0.113.7"],
    ["::FFFF:203.0.113.7", "203.0.113.7"],
    ["2001:DB8:0:0:0:0:0:1", "2001:db8::1"],
    ["[2001:db8::1]:443", "2001:db8::1"],
    ["fe80::1%eth0", "fe80::1"],
    ["2001:db8:0:1:0:0:0:0", "2001:db8:0:1::"],
    ["::1", "::1"],
    ["64:ff9b::198.51.100.1", "64:ff9b::c633:6401"],
  ])("%s -> %s", (raw, expected) => expect(normalizeIp(raw)).toBe(expected));

  it.each(["", "unknown", "1.2.3", "999.1.1.1", "01.2.3.4", "example.com", "1.2.3.4.5", "::g"])("refuses %j", (raw) =>
    expect(normalizeIp(raw)).toBeNull(),
  );
});

describe("parseTrustedProxies", () => {
  it("reads addresses, CIDRs and range names", () => {
    const trusted = parseTrustedProxies("10.0.0.0/8, 192.0.2.10 2001:db8:100::/48 loopback");
    expect(trusted.contains("10.200.1.1")).toBe(true);
    expect(trusted.contains("::ffff:10.200.1.1")).toBe(true);
    expect(trusted.contains("192.0.2.10")).toBe(true);
    expect(trusted.contains("192.0.2.11")).toBe(false);
    expect(trusted.contains("2001:db8:100:5::1")).toBe(true);
    expect(trusted.contains("2001:db8:101::1")).toBe(false);
    expect(trusted.contains("127.0.0.1")).toBe(true);
    expect(trusted.contains("::1")).toBe(true);
    expect(trusted.contains("garbage")).toBe(false);
  });

  it("trusts nobody when empty", () => {
    expect(parseTrustedProxies("").contains("127.0.0.1")).toBe(false);
    expect(parseTrustedProxies(undefined).entries).toEqual([]);
  });

  it.each(["10.0.0.0/33", "10.0.0.0/x", "10.0.0.0/8/1", "proxy.internal", "::/129", "10.0.0.0/"])("refuses %j", (setting) =>
    expect(() => parseTrustedProxies(setting)).toThrow(/Not an IP address/),
  );

  it("is available as a zod schema for the configuration", () => {
    expect(trustedProxiesSchema.parse("private").contains("172.20.0.5")).toBe(true);
    expect(trustedProxiesSchema.parse(undefined).entries).toEqual([]);
    const result = trustedProxiesSchema.safeParse("10.0.0.0/40");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/10\.0\.0\.0\/40/);
  });
});

describe("clientIp", () => {
  const trusted = parseTrustedProxies("10.0.0.0/8, 2001:db8:ffff::/48");

  it("without trusted proxies, the socket peer is the client and the header is ignored", () => {
    expect(clientIp({ remoteAddress: "198.51.100.4", forwardedFor: "203.0.113.9", trustedProxies: parseTrustedProxies("") })).toBe(
      "198.51.100.4",
    );
  });

  it("ignores the header when the peer is not a trusted proxy", () => {
    expect(clientIp({ remoteAddress: "198.51.100.4", forwardedFor: "203.0.113.9", trustedProxies: trusted })).toBe("198.51.100.4");
  });

  it("takes the hop our proxy appended, not what the client wrote before it", () => {
    // The client sent "X-Forwarded-For: 1.1.1.1"; our load balancer appended the address it saw.
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: "1.1.1.1, 203.0.113.9", trustedProxies: trusted })).toBe("203.0.113.9");
  });

  it("walks through a chain of trusted proxies to the rightmost untrusted hop", () => {
    expect(
      clientIp({ remoteAddress: "::ffff:10.0.0.2", forwardedFor: "1.1.1.1, 203.0.113.9, 10.1.1.1, 10.2.2.2", trustedProxies: trusted }),
    ).toBe("203.0.113.9");
    expect(clientIp({ remoteAddress: "2001:db8:ffff::5", forwardedFor: "2001:DB8:1::7", trustedProxies: trusted })).toBe("2001:db8:1::7");
  });

  it("handles ports and IPv4-mapped addresses in the header", () => {
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: "203.0.113.9:4431", trustedProxies: trusted })).toBe("203.0.113.9");
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: "[2001:db8:1::7]:443", trustedProxies: trusted })).toBe("2001:db8:1::7");
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: "::ffff:203.0.113.9", trustedProxies: trusted })).toBe("203.0.113.9");
  });

  it("returns null when the client's position holds garbage", () => {
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: "unknown, 10.3.3.3", trustedProxies: trusted })).toBeNull();
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: "<script>", trustedProxies: trusted })).toBeNull();
  });

  it("falls back to the peer, or the leftmost trusted hop, when nothing untrusted is left", () => {
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: null, trustedProxies: trusted })).toBe("10.0.0.2");
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: " , ", trustedProxies: trusted })).toBe("10.0.0.2");
    expect(clientIp({ remoteAddress: "10.0.0.2", forwardedFor: "10.9.9.9, 10.3.3.3", trustedProxies: trusted })).toBe("10.9.9.9");
  });

  it("returns null without a readable peer", () => {
    expect(clientIp({ remoteAddress: undefined, forwardedFor: "203.0.113.9", trustedProxies: trusted })).toBeNull();
  });
});
