import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELIVERY_COUNT_MAX } from "@/lib/schemas/deliveries";
import { createEmbeddedWorker, type EmbeddedWorker } from "@/server/jobs/embedded-worker";
import { testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { expectProblem, type RestClient, restClientForNewOrg } from "@/test/rest";
import { waitUntil } from "@/test/wait";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";

let t: TestDb;
let call: RestClient;
let other: RestClient;
let good: Receiver;
let bad: Receiver;
let worker: EmbeddedWorker;
let project: { uniqueId: string; campaignId: string };
let theirProject: string;
let goodHook: string;
let badHook: string;
/** The tracking ids of the rewards granted in beforeAll, by referee. */
const tracking: Record<string, string> = {};

type Item = {
  deliveryId: string;
  webhookId: string;
  trackingId: string | null;
  referrerId: string | null;
  refereeId: string | null;
  event: string;
  status: string;
  attempts: number;
  lastAttemptAt: string | null;
  nextAttemptAt: string | null;
  lastHttpStatus: number | null;
  failure: string | null;
  createdAt: string;
};

const base = () => `/projects/${project.uniqueId}/deliveries`;
const list = async (query = "") => {
  const res = await call("GET", `${base()}${query ? `?${query}` : ""}`);
  expect(res.status, res.text).toBe(200);
  return res.json as { items: Item[]; page: number; pageSize: number; totalCount: number; hasNextPage: boolean };
};

/** Link, track and reward over REST: one delivery per webhook. */
async function reward(referrer: string, referee: string, event: string) {
  await call("POST", `/projects/${project.uniqueId}/users`, { body: { ClientProvidedId: referrer } });
  const link = await call("POST", `/projects/${project.uniqueId}/referrals/link`, { body: { ReferrerId: referrer } });
  const code = new URL(link.json.referralLink).searchParams.get("referralCode");
  const track = await call("POST", `/projects/${project.uniqueId}/referrals/track`, { body: { ReferralCode: code, RefereeId: referee } });
  const res = await call("POST", `/projects/${project.uniqueId}/referrals/reward`, { body: { ReferralTrackingId: track.json.referralTrackingId, EventName: event } });
  expect(res.json).toMatchObject({ rewardClaimed: true });
  tracking[referee] = track.json.referralTrackingId;
}

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  good = await startReceiver(() => ({ status: 200, body: "thanks" }));
  // 422 is permanent: dead-lettered at the first attempt, so the setup settles at once.
  bad = await startReceiver(() => ({ status: 422, body: '{"error":"unknown referrer"}' }));
  worker = createEmbeddedWorker({ db: t.db, pollIntervalMs: 50, attempt: { ...testAttemptOptions(), baseMs: 30 } });
  worker.start();
  project = (await call("POST", "/projects", { body: { name: "Support", referralRedirectLink: "https://app.example.com/join" } })).json;
  theirProject = (await other("POST", "/projects", { body: { name: "Theirs", referralRedirectLink: "https://app.example.com/join" } })).json.uniqueId;
  const hook = async (name: string, url: string) =>
    (await call("POST", `/projects/${project.uniqueId}/webhooks/${project.campaignId}`, { body: { name, url, secret: "support-test-secret-0123456789" } })).json.id as string;
  goodHook = await hook("Good", good.url);
  badHook = await hook("Bad", bad.url);
  await reward("alice", "bob", "purchase");
  await reward("alice", "carol", "signup");
  await reward("dave", "erin", "purchase");
  await waitUntil(() => t.db.delivery.count({ where: { status: { not: "Pending" } } }), (n) => n === 6, { what: "6 settled deliveries" });
});
afterAll(async () => {
  await worker.stop();
  await good.close();
  await bad.close();
  await t.drop();
});

describe("GET /projects/{projectId}/deliveries", () => {
  it("lists every webhook's deliveries newest first, in the list envelope, with what support needs to know", async () => {
    const page = await list();
    expect(page).toMatchObject({ page: 1, pageSize: 20, totalCount: 6, totalCountExact: true, hasNextPage: false });
    const created = page.items.map((i) => i.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    const failed = page.items.find((i) => i.refereeId === "bob" && i.webhookId === badHook)!;
    expect(failed).toMatchObject({
      trackingId: tracking.bob,
      referrerId: "alice",
      refereeId: "bob",
      event: "purchase",
      status: "Failed",
      attempts: 1,
      lastHttpStatus: 422,
      nextAttemptAt: null,
      failure: "dead_lettered",
      webhookName: "Bad",
      test: false,
      retryable: true,
    });
    expect(failed.lastAttemptAt).toEqual(expect.any(String));
    const sent = page.items.find((i) => i.refereeId === "bob" && i.webhookId === goodHook)!;
    expect(sent).toMatchObject({ status: "Succeeded", lastHttpStatus: 200, failure: null, retryable: false, nextAttemptAt: null });
  });

  it("finds by a delivery id, a tracking id, or either party's client id, exactly", async () => {
    const all = (await list()).items;
    const one = all.find((i) => i.refereeId === "carol" && i.webhookId === goodHook)!;
    expect((await list(`search=${one.deliveryId}`)).items.map((i) => i.deliveryId)).toEqual([one.deliveryId]);
    const byTracking = await list(`search=${tracking.carol}`);
    expect(byTracking.items.map((i) => i.trackingId)).toEqual([tracking.carol, tracking.carol]);
    expect((await list("search=alice")).totalCount).toBe(4);
    expect((await list("search=erin")).items.map((i) => i.refereeId)).toEqual(["erin", "erin"]);
    expect((await list(`search=${encodeURIComponent("  dave ")}`)).totalCount).toBe(2);
    // The short id the table shows (with or without its ellipsis), of the delivery or of its referral.
    for (const short of [one.deliveryId.slice(0, 8), `${one.deliveryId.slice(0, 8).toUpperCase()}…`]) {
      expect((await list(`search=${encodeURIComponent(short)}`)).items.map((i) => i.deliveryId), short).toEqual([one.deliveryId]);
    }
    expect((await list(`search=${tracking.carol!.slice(0, 8)}`)).items.map((i) => i.trackingId)).toEqual([tracking.carol, tracking.carol]);
    // Otherwise exact: no prefixes of client ids, no other case, no 7 characters of an id.
    for (const term of ["ali", "ALICE", one.deliveryId.slice(0, 7), "nobody"]) expect((await list(`search=${term}`)).totalCount, term).toBe(0);
  });

  it("filters by status, webhook, event and creation time, together", async () => {
    expect((await list("status=Failed")).items.every((i) => i.status === "Failed" && i.webhookId === badHook)).toBe(true);
    expect((await list("status=failed")).totalCount).toBe(3);
    expect((await list(`webhookId=${goodHook}`)).totalCount).toBe(3);
    expect((await list("event=purchase")).totalCount).toBe(4);
    expect((await list("event=Purchase")).totalCount).toBe(0);
    expect((await list(`event=purchase&status=Failed&search=alice`)).items.map((i) => [i.refereeId, i.webhookId])).toEqual([["bob", badHook]]);
    const times = (await list()).items.map((i) => i.createdAt).sort();
    const [first, last] = [times[0]!, times.at(-1)!];
    expect((await list(`from=${first}`)).totalCount).toBe(6);
    expect((await list(`to=${first}`)).totalCount).toBe(0);
    expect((await list(`from=${encodeURIComponent(new Date(Date.parse(last) + 1).toISOString())}`)).totalCount).toBe(0);
    expect((await list(`from=${first}&to=${last}`)).items.every((i) => i.createdAt < last)).toBe(true);
    // Offsets are read as the instant they name.
    expect((await list(`to=${encodeURIComponent(first.replace("Z", "+00:00"))}`)).totalCount).toBe(0);
  });

  it("pages", async () => {
    const all = (await list()).items.map((i) => i.deliveryId);
    const second = await list("page=2&pageSize=2");
    expect(second).toMatchObject({ page: 2, pageSize: 2, totalCount: 6, hasNextPage: true });
    expect(second.items.map((i) => i.deliveryId)).toEqual(all.slice(2, 4));
    expect((await list("Page=3&PageSize=2")).hasNextPage).toBe(false);
  });

  it("counts up to 10,000 matches and then says there are more, with hasNextPage exact either way", async () => {
    const big = (await call("POST", "/projects", { body: { name: "Busy", referralRedirectLink: "https://app.example.com/join" } })).json;
    const hook = (await call("POST", `/projects/${big.uniqueId}/webhooks/${big.campaignId}`, { body: { name: "Busy", url: good.url, secret: "support-test-secret-0123456789" } }))
      .json.id as string;
    // Settled test events, one a second back from now: nothing for the worker to send.
    await t.db.$executeRaw`
      INSERT INTO "Delivery" ("id", "projectId", "webhookId", "eventName", "status", "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
      SELECT gen_random_uuid()::text, ${big.uniqueId}, ${hook}, 'referloop.test', 'Succeeded', 1, now(), now() - n * interval '1 second', now()
      FROM generate_series(1, ${DELIVERY_COUNT_MAX + 1}::int) AS n`;
    const page = async (query: string) => {
      const res = await call("GET", `/projects/${big.uniqueId}/deliveries?${query}`);
      expect(res.status, res.text).toBe(200);
      return res.json as { items: Item[]; totalCount: number; totalCountExact: boolean; hasNextPage: boolean };
    };
    expect(await page("pageSize=1")).toMatchObject({ totalCount: DELIVERY_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    expect(await page("page=100&pageSize=100")).toMatchObject({ totalCount: DELIVERY_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    const beyond = await page("page=101&pageSize=100");
    expect(beyond).toMatchObject({ totalCountExact: false, hasNextPage: false });
    expect(beyond.items).toHaveLength(1);
    // A filter that selects fewer is counted exactly.
    expect(await page("search=nobody")).toMatchObject({ totalCount: 0, totalCountExact: true, hasNextPage: false });
    await t.db.delivery.delete({ where: { id: beyond.items[0]!.deliveryId } });
    expect(await page("page=100&pageSize=100")).toMatchObject({ totalCount: DELIVERY_COUNT_MAX, totalCountExact: true, hasNextPage: false });
  });

  it("refuses bad input with a problem naming the field", async () => {
    const at = "2026-11-01T00:00:00Z";
    expectProblem(await call("GET", `${base()}?from=2026-11-02T00:00:00Z&to=${at}`), 400, ["from"]);
    expectProblem(await call("GET", `${base()}?from=${at}&to=${at}`), 400, ["from"]);
    expectProblem(await call("GET", `${base()}?status=Delivered`), 400, ["status"]);
    expectProblem(await call("GET", `${base()}?pageSize=101`), 400, [["pageSize", "too_big"]]);
    expectProblem(await call("GET", `${base()}?page=0`), 400, ["page"]);
    expectProblem(await call("GET", `${base()}?from=yesterday`), 400, ["from"]);
    expectProblem(await call("GET", `${base()}?search=${"x".repeat(256)}`), 400, ["search"]);
    expectProblem(await call("GET", `${base()}?search=%20`), 400, ["search"]);
  });

  it("answers 404 for another organisation's project, as for an unknown one, and never lists their deliveries", async () => {
    const theirs = await other("GET", base());
    const unknown = await other("GET", "/projects/00000000-0000-0000-0000-000000000000/deliveries");
    expectProblem(theirs, 404);
    expect(theirs.json.detail).toBe(unknown.json.detail);
    expectProblem(await call("GET", `/projects/${theirProject}/deliveries`), 404);
    const mine = (await list()).items[0]!;
    expect((await other("GET", `/projects/${theirProject}/deliveries?search=${mine.deliveryId}`)).json.totalCount).toBe(0);
    expect((await other("GET", `/projects/${theirProject}/deliveries?search=alice`)).json.totalCount).toBe(0);
  });

  it("answers 404 for a webhookId filter naming an unknown webhook or another organisation's", async () => {
    const theirCampaign = (await other("GET", `/projects/${theirProject}/campaign`)).json.campaignId;
    const theirHook = (await other("POST", `/projects/${theirProject}/webhooks/${theirCampaign}`, { body: { name: "Theirs", url: good.url, secret: "support-test-secret-0123456789" } }))
      .json.id as string;
    const res = await call("GET", `${base()}?webhookId=${theirHook}`);
    expectProblem(res, 404);
    expect(res.json.detail).toBe("Webhook was not found.");
    expectProblem(await call("GET", `${base()}?webhookId=00000000-0000-0000-0000-000000000000`), 404);
    expectProblem(await other("GET", `/projects/${theirProject}/deliveries?webhookId=${goodHook}`), 404);
    expectProblem(await call("GET", `/projects/${project.uniqueId}/exports/deliveries.csv?webhookId=${theirHook}`), 404);
    expect((await call("GET", `${base()}?webhookId=${goodHook}`)).status).toBe(200);
  });
});

describe("GET /projects/{projectId}/deliveries/{deliveryId}", () => {
  const find = async (referee: string, webhookId: string) => (await list(`search=${referee}&webhookId=${webhookId}`)).items[0]!;

  it("shows each attempt's request as sent, the secret redacted, and the response", async () => {
    const failed = await find("bob", badHook);
    const res = await call("GET", `${base()}/${failed.deliveryId}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.delivery).toMatchObject({ deliveryId: failed.deliveryId, status: "Failed", failure: "dead_lettered", trackingId: tracking.bob, refereeId: "bob" });
    expect(res.json.attempts).toHaveLength(1);
    const [attempt] = res.json.attempts;
    const received = bad.requests.find((r) => r.headers["x-service-delivery-id"] === failed.deliveryId)!;
    expect(attempt).toMatchObject({ attemptNumber: 1, success: false, error: "HTTP 422", response: { status: 422, body: '{"error":"unknown referrer"}' } });
    expect(attempt.request.url).toBe(bad.url);
    // Exactly the body the receiver got, and every header it got but the secret.
    expect(attempt.request.body).toBe(received.body);
    expect(attempt.request.headers.Authorization).toBe("[redacted]");
    expect(res.text).not.toContain("support-test-secret-0123456789");
    const sent = Object.fromEntries(Object.entries(attempt.request.headers as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]));
    const got = Object.fromEntries(Object.entries(received.headers).filter(([k]) => k in sent && k !== "authorization"));
    expect({ ...sent, authorization: undefined }).toEqual({ ...got, authorization: undefined });
    expect(received.headers.authorization).toBe("Bearer support-test-secret-0123456789");
  });

  it("shows a network error, and an exhausted delivery", async () => {
    const gone = await startReceiver();
    const url = gone.url;
    await gone.close(); // nothing listens there any more: every attempt is refused by the network
    const project2 = (await call("POST", "/projects", { body: { name: "Unreachable", referralRedirectLink: "https://app.example.com/join" } })).json;
    await call("POST", `/projects/${project2.uniqueId}/webhooks/${project2.campaignId}`, { body: { name: "Down", url, secret: "support-test-secret-0123456789" } });
    await call("POST", `/projects/${project2.uniqueId}/users`, { body: { ClientProvidedId: "zed" } });
    const link = await call("POST", `/projects/${project2.uniqueId}/referrals/link`, { body: { ReferrerId: "zed" } });
    const code = new URL(link.json.referralLink).searchParams.get("referralCode");
    const track = await call("POST", `/projects/${project2.uniqueId}/referrals/track`, { body: { ReferralCode: code, RefereeId: "yan" } });
    await call("POST", `/projects/${project2.uniqueId}/referrals/reward`, { body: { ReferralTrackingId: track.json.referralTrackingId, EventName: "signup" } });
    const deliveryId = (await t.db.delivery.findFirstOrThrow({ where: { trackingId: track.json.referralTrackingId } })).id;
    await waitUntil(() => t.db.delivery.findUniqueOrThrow({ where: { id: deliveryId } }), (d) => d.status === "Failed", { what: "an exhausted delivery" });
    const res = await call("GET", `/projects/${project2.uniqueId}/deliveries/${deliveryId}`);
    expect(res.json.delivery).toMatchObject({ status: "Failed", failure: "exhausted", attempts: 5, lastHttpStatus: null });
    expect(res.json.attempts.map((a: { attemptNumber: number }) => a.attemptNumber)).toEqual([1, 2, 3, 4, 5]);
    for (const attempt of res.json.attempts) {
      expect(attempt.response).toBeNull();
      expect(attempt.error).toMatch(/^Network error: ECONNREFUSED/);
      expect(attempt.request.url).toBe(url);
    }
  });

  it("answers 404 for an unknown delivery, and for another organisation's project or delivery", async () => {
    const mine = await find("bob", goodHook);
    expectProblem(await call("GET", `${base()}/00000000-0000-0000-0000-000000000000`), 404);
    expectProblem(await call("GET", `${base()}/not-a-uuid`), 404);
    expectProblem(await other("GET", `${base()}/${mine.deliveryId}`), 404);
    expectProblem(await other("GET", `/projects/${theirProject}/deliveries/${mine.deliveryId}`), 404);
    expectProblem(await call("GET", `/projects/${theirProject}/deliveries/${mine.deliveryId}`), 404);
  });
});

describe("GET /projects/{projectId}/referrals/{trackingId}", () => {
  it("shows the tracking item, every reward event with its outcome and reason, and its deliveries", async () => {
    // A second report of the same event is refused: the item is already Completed.
    await call("POST", `/projects/${project.uniqueId}/referrals/reward`, { body: { ReferralTrackingId: tracking.carol, EventName: "signup" } });
    const res = await call("GET", `/projects/${project.uniqueId}/referrals/${tracking.carol}`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.referral).toMatchObject({ referralTrackingId: tracking.carol, referrerId: "alice", refereeId: "carol", status: "Completed", rewardClaimed: true });
    expect(res.json.rewardEvents.map((e: { outcome: string; reason: string | null; eventName: string }) => [e.eventName, e.outcome, e.reason])).toEqual([
      ["signup", "Claimed", null],
      ["signup", "Rejected", "already_completed"],
    ]);
    expect(res.json.deliveries.map((d: Item) => d.webhookId).sort()).toEqual([goodHook, badHook].sort());
    expect(res.json.deliveries.every((d: Item) => d.trackingId === tracking.carol)).toBe(true);
  });

  it("answers 404 for an unknown tracking id, and for another organisation's", async () => {
    expectProblem(await call("GET", `/projects/${project.uniqueId}/referrals/00000000-0000-0000-0000-000000000000`), 404);
    expectProblem(await other("GET", `/projects/${project.uniqueId}/referrals/${tracking.carol}`), 404);
    expectProblem(await other("GET", `/projects/${theirProject}/referrals/${tracking.carol}`), 404);
  });
});
