import { describe, expect, it } from "vitest";
import { loadConfig } from "@/server/config";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { mailboxVisible } from "./mailbox";

/** Headers as the peer-address hook leaves them for a connection from `peer`. */
const from = (peer: string | null, forwardedFor?: string) =>
  new Headers({ ...(peer === null ? {} : { [PEER_ADDRESS_HEADER]: peer }), ...(forwardedFor ? { "x-forwarded-for": forwardedFor } : {}) });

describe("the development mailbox", () => {
  const optedIn = loadConfig({ REFERLOOP_DEV_MAILBOX: "true" });

  it("is shown only where REFERLOOP_DEV_MAILBOX opts in, whatever NODE_ENV says", () => {
    for (const NODE_ENV of ["development", "production", undefined]) {
      expect(mailboxVisible(loadConfig({ NODE_ENV }), from("127.0.0.1"))).toBe(false);
    }
    expect(mailboxVisible(optedIn, from("127.0.0.1"))).toBe(true);
    expect(mailboxVisible(optedIn, from("::1"))).toBe(true);
    expect(mailboxVisible(optedIn, from("::ffff:127.0.0.1"))).toBe(true);
  });

  it("answers loopback clients only, by the connection's recorded address, never a header's claim", () => {
    expect(mailboxVisible(optedIn, from("203.0.113.9"))).toBe(false);
    expect(mailboxVisible(optedIn, from("10.0.0.4"))).toBe(false);
    // A remote client claiming loopback in X-Forwarded-For is still remote.
    expect(mailboxVisible(optedIn, from("203.0.113.9", "127.0.0.1"))).toBe(false);
    // The hook did not run: the address is unknown, so no.
    expect(mailboxVisible(optedIn, from(null))).toBe(false);
  });

  it("behind a trusted proxy on this machine, answers only when the client it forwards for is local too", () => {
    const behindProxy = loadConfig({ REFERLOOP_DEV_MAILBOX: "true", REFERLOOP_TRUSTED_PROXIES: "loopback" });
    expect(mailboxVisible(behindProxy, from("127.0.0.1", "198.51.100.7"))).toBe(false);
    expect(mailboxVisible(behindProxy, from("127.0.0.1", "127.0.0.1"))).toBe(true);
    expect(mailboxVisible(behindProxy, from("127.0.0.1"))).toBe(true);
  });
});
