import { describe, expect, it } from "vitest";
import { testConfig } from "@/test/config";
import { publicOrigin, requestOrigin } from "./public-origin";

describe("publicOrigin", () => {
  const headers = new Headers({ host: "10.0.0.5:3000", "x-forwarded-host": "go.example.com", "x-forwarded-proto": "https" });

  it("is the configured public URL when there is one", () => {
    expect(publicOrigin(testConfig({ REFERLOOP_PUBLIC_URL: "https://links.example.com/" }), headers)).toBe("https://links.example.com");
    expect(publicOrigin(testConfig({ NEXTAUTH_URL: "https://dash.example.com" }), headers)).toBe("https://dash.example.com");
  });

  it("is the request's forwarded host and scheme otherwise, then its Host", () => {
    expect(publicOrigin(testConfig(), headers)).toBe("https://go.example.com");
    expect(requestOrigin(new Headers({ host: "localhost:4000" }))).toBe("http://localhost:4000");
    expect(requestOrigin(new Headers({ host: "[::1]:4000", "x-forwarded-proto": "https, http" }))).toBe("https://[::1]:4000");
  });

  it("never builds on a malformed host", () => {
    expect(requestOrigin(new Headers({ host: 'evil.example"><script>' }), "https://fallback.example")).toBe("https://fallback.example");
    expect(requestOrigin(new Headers({ "x-forwarded-host": "evil.example/path" }))).toBe("http://localhost");
  });
});
