import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createReferloopMobile, STORAGE_KEYS, type DeviceAdapter, type DeviceInfo, type StorageAdapter } from "./index.ts";
import { memoryStorage } from "../../../src/test/mobile-storage";

// ---------------------------------------------------------------------------------------------
// FAKE SERVER, for this test only: a minimal stand-in for POST /api/v1/sdk/init-app-user that
// follows SDK-CONTRACT.md (key header, JSON in and out, problem+json errors, Retry-After). It stays
// for what the real endpoint cannot show yet or at will: the mobile attribution methods (the
// service answers them once the hosted landing page exists) and transport failures (429, 5xx, a
// garbage 200, a hang). Binding, keys and identity verification run against the real handler in
// src/server/api/rest/mobile-client.integration.test.ts (the lint keeps server code out of
// src/sdk). It binds by the contract's order of certainty with
// made-up data: a tracking id or code, then the Install Referrer, the clipboard token "tok-1", a
// deep link, then a "fingerprint" for one screen size.
// ---------------------------------------------------------------------------------------------
const KEY = "pk_test_mobile";
type Recorded = { headers: http.IncomingHttpHeaders; body: Record<string, unknown> };
type Mode = "normal" | "rate_limited" | "server_error" | "garbage" | "hang";
const fake = {
  requests: [] as Recorded[],
  users: new Map<string, { id: string; code: string; trackingId: string | null; method: string; confidence: number }>(),
  mode: "normal" as Mode,
};
const problem = (res: http.ServerResponse, status: number, title: string, headers: Record<string, string> = {}) =>
  res
    .writeHead(status, { "content-type": "application/problem+json", ...headers })
    .end(JSON.stringify({ type: `urn:referloop:problem:${title.toLowerCase().replace(/ /g, "_")}`, title, status, detail: `${title} (fake)` }));

function referralOf(body: Record<string, unknown>): { trackingId: string; method: string; confidence: number } | null {
  if (typeof body.referralTrackingId === "string") return { trackingId: body.referralTrackingId, method: "cookie", confidence: 1 };
  if (body.referralCode === "AbC123") return { trackingId: "trk-code", method: "link", confidence: 1 };
  if (typeof body.installReferrer === "string" && /referralCode=AbC123/.test(body.installReferrer))
    return { trackingId: "trk-referrer", method: "install_referrer", confidence: 1 };
  if (body.clipboardToken === "tok-1") return { trackingId: "trk-clipboard", method: "clipboard", confidence: 1 };
  if (typeof body.deepLink === "string" && /referralCode=AbC123/.test(body.deepLink)) return { trackingId: "trk-link", method: "link", confidence: 1 };
  const device = body.device as Partial<DeviceInfo> | undefined;
  if (device?.screenWidth === 390 && device.screenHeight === 844) return { trackingId: "trk-fingerprint", method: "fingerprint", confidence: 0.93 };
  return null;
}

const server = http.createServer((req, res) => {
  let raw = "";
  req.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
  req.on("end", () => {
    if (req.method !== "POST" || req.url !== "/api/v1/sdk/init-app-user") return problem(res, 404, "Not found");
    if (req.headers["x-service-projectsecret"] !== KEY) return problem(res, 401, "Unauthorized");
    if (!/^application\/json/.test(req.headers["content-type"] ?? "")) return problem(res, 415, "Unsupported media type");
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      return problem(res, 400, "Bad request");
    }
    fake.requests.push({ headers: req.headers, body });
    if (fake.mode === "hang") return;
    if (fake.mode === "rate_limited") return problem(res, 429, "Too many requests", { "retry-after": "7" });
    if (fake.mode === "server_error") return problem(res, 500, "Internal error");
    if (fake.mode === "garbage") return res.writeHead(200, { "content-type": "application/json" }).end("<html>oops</html>");
    const userId = body.userId as string;
    let user = fake.users.get(userId);
    if (!user) {
      // Created once; bound exactly once, on creation, as the contract's binding rule says.
      const referral = referralOf(body);
      user = { id: randomUUID(), code: "Zx81Qp", trackingId: referral?.trackingId ?? null, method: referral?.method ?? "none", confidence: referral?.confidence ?? 0 };
      fake.users.set(userId, user);
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: user.id,
        uniqueId: user.id,
        clientProvidedId: userId,
        referralCode: user.code,
        referralLink: `https://acme.example/join?referralCode=${user.code}`,
        referrerExperience: {
          triggerButton: { buttonType: "floating", buttonPosition: "bottom-right" },
          modal: { componentType: "modal", modalTitle: "Invite friends", modalDescription: "" },
          theme: { themeColor: "#0A66FF", backgroundColor: "#FFFFFF", tintColor: "#000000", tintAlpha: 0.5 },
        },
        referralTrackingId: user.trackingId,
        attribution: { method: user.method, confidence: user.confidence },
      }),
    );
  });
});
// --------------------------------------- end of the fake ---------------------------------------

let apiBaseUrl = "";
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  apiBaseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.users.clear();
  fake.mode = "normal";
});

const IPHONE: DeviceInfo = { os: "ios", osVersion: "17.4.1", screenWidth: 844, screenHeight: 390, pixelRatio: 3, timezone: "Europe/Berlin", locale: "de-DE" };
const PIXEL: DeviceInfo = { os: "android", osVersion: "14", screenWidth: 411.43, screenHeight: 914.29, pixelRatio: 2.625, timezone: "Europe/Berlin", locale: "de-DE" };

/** A device adapter that counts how often the one-time sources are read. */
function fakeDevice(info: DeviceInfo, sources: { referrer?: string | null; clipboard?: string | null; initialLink?: string | null } = {}) {
  const reads = { referrer: 0, clipboard: 0 };
  const device: DeviceAdapter = {
    getInfo: () => info,
    getInstallReferrer: async () => (reads.referrer++, sources.referrer ?? null),
    readClipboard: async () => (reads.clipboard++, sources.clipboard ?? null),
    getInitialLink: async () => sources.initialLink ?? null,
  };
  return { device, reads };
}

const launch = (storage: StorageAdapter, device: DeviceAdapter, extra: { timeoutMs?: number; key?: string; apiBaseUrl?: string } = {}) =>
  createReferloopMobile({ key: extra.key ?? KEY, apiBaseUrl: extra.apiBaseUrl ?? apiBaseUrl, storage, device, timeoutMs: extra.timeoutMs });

describe("createReferloopMobile against a contract-following server", () => {
  it("first launch on Android: sends the Install Referrer and the device, stores the referral, exposes the link", async () => {
    const storage = memoryStorage();
    const { device } = fakeDevice(PIXEL, { referrer: "utm_source=referloop&referralCode=AbC123&clickId=c-1" });
    const referloop = launch(storage, device);
    await referloop.start();

    const result = await referloop.identify({ userId: "user-42", attributes: { name: "Ada" } });
    expect(result.ok).toBe(true);
    expect(fake.requests).toHaveLength(1);
    const { headers, body } = fake.requests[0]!;
    expect(headers["x-service-projectsecret"]).toBe(KEY);
    expect(headers.cookie).toBeUndefined();
    expect(body).toEqual({
      userId: "user-42",
      attributes: { name: "Ada" },
      installReferrer: "utm_source=referloop&referralCode=AbC123&clickId=c-1",
      device: { os: "Android", osVersion: "14", screenWidth: 411.43, screenHeight: 914.29, pixelRatio: 2.625, timezone: "Europe/Berlin", locale: "de-DE" },
    });
    expect(referloop.getReferralLink()).toBe("https://acme.example/join?referralCode=Zx81Qp");
    expect(referloop.getReferralCode()).toBe("Zx81Qp");
    expect(referloop.getAttribution()).toEqual({ method: "install_referrer", confidence: 1 });
    expect(await referloop.getTrackedReferral()).toBe("trk-referrer");
    expect(storage.data.get(STORAGE_KEYS.trackedReferral)).toBe("trk-referrer");
  });

  it("reads the Install Referrer and the clipboard on the first launch only, and sends them until received once", async () => {
    const storage = memoryStorage();
    const first = fakeDevice(IPHONE, { clipboard: "referloop:tok-1" });
    fake.mode = "server_error";
    const launch1 = launch(storage, first.device);
    const failed = await launch1.identify({ userId: "u1" });
    expect(failed.ok).toBe(false);
    expect(fake.requests[0]!.body.clipboardToken).toBe("tok-1");

    // The next launch: nothing read again, the token still sent because it never arrived.
    fake.mode = "normal";
    const second = fakeDevice(IPHONE, { clipboard: "referloop:tok-2" });
    const launch2 = launch(storage, second.device);
    const ok = await launch2.identify({ userId: "u1" });
    expect(ok.ok && ok.user.attribution).toEqual({ method: "clipboard", confidence: 1 });
    expect(fake.requests[1]!.body.clipboardToken).toBe("tok-1");
    expect(second.reads).toEqual({ referrer: 0, clipboard: 0 });
    expect(first.reads).toEqual({ referrer: 1, clipboard: 1 });

    // Received once: never sent again; the tracking id is sent instead.
    const third = launch(storage, fakeDevice(IPHONE).device);
    await third.identify({ userId: "u1" });
    expect(fake.requests[2]!.body).not.toHaveProperty("clipboardToken");
    expect(fake.requests[2]!.body.referralTrackingId).toBe("trk-clipboard");
  });

  it("never sends clipboard text that is not a Referloop token, nor a referrer that names no referral", async () => {
    const referloop = launch(memoryStorage(), fakeDevice(PIXEL, { clipboard: "my bank PIN is 1234", referrer: "utm_source=google-play&utm_medium=organic" }).device);
    await referloop.identify({ userId: "u2" });
    expect(fake.requests[0]!.body).not.toHaveProperty("clipboardToken");
    expect(fake.requests[0]!.body).not.toHaveProperty("installReferrer");
    expect(JSON.stringify(fake.requests[0]!.body)).not.toContain("PIN");
  });

  it("sends the link that opened the app, if it names a referral, and only that one", async () => {
    const withLink = launch(memoryStorage(), fakeDevice(IPHONE, { initialLink: "https://acme.example/join?referralCode=AbC123&rewardEventName=purchase" }).device);
    const result = await withLink.identify({ userId: "u3" });
    expect(fake.requests[0]!.body.deepLink).toBe("https://acme.example/join?referralCode=AbC123&rewardEventName=purchase");
    expect(result.ok && result.user.attribution.method).toBe("link");

    const reset = launch(memoryStorage(), fakeDevice(IPHONE, { initialLink: "https://acme.example/reset-password?token=secret" }).device);
    await reset.identify({ userId: "u4" });
    expect(fake.requests[1]!.body).not.toHaveProperty("deepLink");
  });

  it("falls back on the fingerprint: sends the device in portrait order and reports how sure the match is", async () => {
    const referloop = launch(memoryStorage(), fakeDevice(IPHONE).device);
    const result = await referloop.identify({ userId: "u5" });
    expect(fake.requests[0]!.body.device).toEqual({
      os: "iOS",
      osVersion: "17.4.1",
      screenWidth: 390,
      screenHeight: 844,
      pixelRatio: 3,
      timezone: "Europe/Berlin",
      locale: "de-DE",
    });
    expect(result.ok && result.user.attribution).toEqual({ method: "fingerprint", confidence: 0.93 });
  });

  it("handles a link opened later: stores its code, and re-identifies a signed-in user with it", async () => {
    const storage = memoryStorage();
    const referloop = launch(storage, fakeDevice(PIXEL).device);
    expect(await referloop.handleLink("acme://settings")).toEqual({ handled: false });

    // Before sign-in: stored, sent with the next identify.
    const early = await referloop.handleLink("acme://join?referralCode=AbC123");
    expect(early).toEqual({ handled: true, referral: { referralCode: "AbC123", rewardEventName: null, referralTrackingId: null }, identify: null });
    expect(storage.data.get(STORAGE_KEYS.referralCode)).toBe("AbC123");
    await referloop.identify({ userId: "u6", userHash: "ab12" });
    expect(fake.requests[0]!.body).toMatchObject({ userId: "u6", userHash: "ab12", referralCode: "AbC123", deepLink: "acme://join?referralCode=AbC123" });

    // After sign-in: sent at once, with the same identity.
    const later = await referloop.handleLink("https://acme.example/join?referralTrackingId=trk-9");
    expect(later.handled && later.identify?.ok).toBe(true);
    expect(fake.requests[1]!.body).toMatchObject({ userId: "u6", userHash: "ab12", referralTrackingId: "trk-9" });
  });

  describe("errors are results, never exceptions", () => {
    it("a wrong key: unauthorized, with the problem", async () => {
      const result = await launch(memoryStorage(), fakeDevice(IPHONE).device, { key: "pk_wrong" }).identify({ userId: "u7" });
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.error).toMatchObject({ kind: "unauthorized", status: 401, retryable: false });
      expect(result.error.problem).toMatchObject({ type: "urn:referloop:problem:unauthorized", status: 401 });
    });

    it("429: rate_limited with Retry-After; 5xx: server; both retryable", async () => {
      fake.mode = "rate_limited";
      const limited = await launch(memoryStorage(), fakeDevice(IPHONE).device).identify({ userId: "u8" });
      expect(!limited.ok && limited.error).toMatchObject({ kind: "rate_limited", retryAfterSeconds: 7, retryable: true });
      fake.mode = "server_error";
      const failed = await launch(memoryStorage(), fakeDevice(IPHONE).device).identify({ userId: "u8" });
      expect(!failed.ok && failed.error).toMatchObject({ kind: "server", status: 500, retryable: true });
    });

    it("a 200 that is not the contract's body: invalid_response", async () => {
      fake.mode = "garbage";
      const result = await launch(memoryStorage(), fakeDevice(IPHONE).device).identify({ userId: "u9" });
      expect(!result.ok && result.error.kind).toBe("invalid_response");
    });

    it("no server: network; a server that never answers: timeout", async () => {
      const closed = http.createServer();
      await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
      const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      await new Promise((resolve) => closed.close(resolve));
      const offline = await launch(memoryStorage(), fakeDevice(IPHONE).device, { apiBaseUrl: deadUrl }).identify({ userId: "u10" });
      expect(!offline.ok && offline.error).toMatchObject({ kind: "network", retryable: true });

      fake.mode = "hang";
      const slow = await launch(memoryStorage(), fakeDevice(IPHONE).device, { timeoutMs: 300 }).identify({ userId: "u10" });
      expect(!slow.ok && slow.error).toMatchObject({ kind: "timeout", retryable: true });
    });

    it("a userId the service would refuse is refused before sending", async () => {
      const referloop = launch(memoryStorage(), fakeDevice(IPHONE).device);
      expect(await referloop.identify({ userId: "" })).toMatchObject({ ok: false, error: { kind: "invalid_input" } });
      expect(await referloop.identify({ userId: "x".repeat(256) })).toMatchObject({ ok: false, error: { kind: "invalid_input" } });
      expect(fake.requests).toHaveLength(0);
    });

    it("broken adapters cost their signal, not the sign-in", async () => {
      const broken: StorageAdapter = {
        getItem: async () => {
          throw new Error("disk full");
        },
        setItem: async () => {
          throw new Error("disk full");
        },
      };
      const device: DeviceAdapter = {
        getInfo: () => {
          throw new Error("no screen");
        },
        readClipboard: async () => {
          throw new Error("paste denied");
        },
      };
      const result = await launch(broken, device).identify({ userId: "u11" });
      expect(result.ok).toBe(true);
      expect(fake.requests[0]!.body).toEqual({ userId: "u11" });
    });
  });

  it("refuses a configuration it cannot work with, at once", () => {
    const storage = memoryStorage();
    const { device } = fakeDevice(IPHONE);
    expect(() => createReferloopMobile({ key: "", apiBaseUrl, storage, device })).toThrow(/key/);
    expect(() => createReferloopMobile({ key: KEY, apiBaseUrl: "app.referloop.example", storage, device })).toThrow(/apiBaseUrl/);
  });
});
