import { describe, expect, it } from "vitest";
import { crossSiteRefusal, provenSameOrigin } from "./same-origin";

const request = (headers: Record<string, string>, url = "http://app.example.com/api/trpc/x") => ({ url, headers: new Headers(headers) });
const config = { publicUrl: undefined };

describe("crossSiteRefusal", () => {
  it("passes the app's own origin (Host, X-Forwarded-Host, the configured public URL; default ports alike) and requests that name none", () => {
    expect(crossSiteRefusal(request({ origin: "https://app.example.com", host: "app.example.com" }), config)).toBeNull();
    expect(crossSiteRefusal(request({ origin: "https://app.example.com", host: "app.example.com:443" }), config)).toBeNull();
    expect(crossSiteRefusal(request({ origin: "https://dash.example.com", host: "internal:3000", "x-forwarded-host": "dash.example.com" }, "http://internal:3000/x"), config)).toBeNull();
    expect(crossSiteRefusal(request({ origin: "https://dash.example.com", host: "internal:3000" }, "http://internal:3000/x"), { publicUrl: "https://dash.example.com" })).toBeNull();
    expect(crossSiteRefusal(request({}), config)).toBeNull();
    expect(crossSiteRefusal(request({ "sec-fetch-site": "same-site" }), config)).toBeNull();
  });

  it("refuses another origin, a look-alike, `null` and anything the browser calls cross-site", () => {
    for (const headers of <Record<string, string>[]>[
      { origin: "https://evil.example.net" },
      { origin: "https://app.example.com.evil.example.net" },
      { origin: "https://app.example.com:8443" },
      { origin: "null" },
      { origin: "not a url" },
      { "sec-fetch-site": "cross-site" },
      { origin: "https://app.example.com", "sec-fetch-site": "cross-site" },
    ]) {
      expect(crossSiteRefusal(request({ host: "app.example.com", ...headers }), config), JSON.stringify(headers)).toMatch(/accepts changes only from its own pages/);
    }
  });
});

it("provenSameOrigin wants the origin stated: Origin ours or Sec-Fetch-Site same-origin", () => {
  expect(provenSameOrigin(request({ origin: "http://app.example.com" }), config)).toBe(true);
  expect(provenSameOrigin(request({ "sec-fetch-site": "same-origin" }), config)).toBe(true);
  expect(provenSameOrigin(request({}), config)).toBe(false);
  expect(provenSameOrigin(request({ origin: "https://evil.example.net" }), config)).toBe(false);
});
