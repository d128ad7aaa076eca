import { describe, expect, it } from "vitest";
import { parseTrustedProxies } from "@/server/domain/attribution/client-ip";
import { requestClientIp } from "./request-ip";

const headers = (xff?: string) => new Headers(xff === undefined ? {} : { "x-forwarded-for": xff });

describe("requestClientIp", () => {
  it("without trusted proxies, is the nearest hop: what Next.js wrote, or what the nearest party sent", () => {
    const none = parseTrustedProxies("");
    expect(requestClientIp(headers("::ffff:127.0.0.1"), none)).toBe("127.0.0.1");
    expect(requestClientIp(headers("198.51.100.1, 203.0.113.9"), none)).toBe("203.0.113.9");
    expect(requestClientIp(headers(), none)).toBeNull();
    expect(requestClientIp(headers("not-an-ip"), none)).toBeNull();
  });

  it("with trusted proxies, walks past their hops to the first address that is not one of them", () => {
    const proxies = parseTrustedProxies("10.0.0.0/8");
    expect(requestClientIp(headers("198.51.100.1, 203.0.113.9, 10.0.0.2"), proxies)).toBe("203.0.113.9");
    expect(requestClientIp(headers("203.0.113.9, 10.0.0.3, 10.0.0.2"), proxies)).toBe("203.0.113.9");
  });
});
