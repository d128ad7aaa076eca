import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "@/server/api/trpc/context";
import { answerRest } from "@/server/api/rest/handle-rest-request";
import { createEmbeddedWorker, type EmbeddedWorker } from "@/server/jobs/embedded-worker";
import { createLogger } from "@/server/observability/logger";
import { testAttemptOptions, testConfig, testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createAppUserOverRest, createProjectOverRest, expectProblem, restClientForNewOrg, trackOverRest, type RestClient } from "@/test/rest";
import { waitUntil } from "@/test/wait";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";
import { createFrontDoor } from "../front-door";
import { MAX_BODY_BYTES } from "../request-body";
import { inboundHookRoute } from "./answer-inbound-hook";

/*
 * The hooks as Stripe and RevenueCat call them: real HTTP to the front door on 127.0.0.1, signatures made
 * by the `stripe` package's own test helper, rewards delivered by the embedded worker to real receivers.
 */

const stripe = new Stripe("sk_test_not_used_offline");
const STRIPE_SECRET = "whsec_inbound_test_0123456789abcdef";
const RC_AUTH = "Bearer rc-inbound-test-0123456789";

let t: TestDb;
let call: RestClient;
let services: Services;
let server: http.Server;
let origin: string;
let worker: EmbeddedWorker;
let sandbox: Receiver;
let production: Receiver;
let projectId: string;
let campaignId: string;
let token: string;
let sandboxHook: string;
let productionHook: string;
let referrer: { referralCode: string };
let seq = 0;

async function startDoor(doorServices: Services) {
  const door = createFrontDoor({
    log: createLogger({ logLevel: "silent", devServer: false }),
    accessLog: false,
    routes: [inboundHookRoute(doorServices), { path: "/api/v1/", handle: (request) => answerRest(request, doorServices) }],
    fallback: async (_req, res) => void res.writeHead(404).end(),
  });
  const s = http.createServer(door);
  await new Promise<void>((resolve) => s.listen(0, "127.0.0.1", resolve));
  return { server: s, origin: `http://127.0.0.1:${(s.address() as AddressInfo).port}` };
}

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  services = testServices(t.db);
  ({ server, origin } = await startDoor(services));
  sandbox = await startReceiver();
  production = await startReceiver();
  worker = createEmbeddedWorker({ db: t.db, pollIntervalMs: 50, attempt: { ...testAttemptOptions(), baseMs: 30 } });
  worker.start();
  projectId = await createProjectOverRest(call, "Inbound");
  campaignId = (await call("GET", `/projects/${projectId}`)).json.campaignId;
  const hook = async (name: string, url: string, environment: string) => {
    const res = await call("POST", `/projects/${projectId}/webhooks/${campaignId}`, { body: { name, url, secret: "inbound-webhook-secret-0123456789", environment } });
    expect(res.status, res.text).toBe(201);
    return res.json.id as string;
  };
  sandboxHook = await hook("Sandbox", sandbox.url, "Sandbox");
  productionHook = await hook("Production", production.url, "Production");
  token = (await call("GET", `/projects/${projectId}/inbound-hooks`)).json.token;
  const set = await call("PUT", `/projects/${projectId}/inbound-hooks`, {
    body: { stripeSigningSecret: STRIPE_SECRET, revenueCatAuthorization: RC_AUTH, eventNames: { "invoice.paid": "purchase" } },
  });
  expect(set.status, set.text).toBe(200);
  referrer = await createAppUserOverRest(call, projectId, "referrer-1");
});
afterAll(async () => {
  await worker.stop();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await sandbox.close();
  await production.close();
  await t.drop();
});

/** A referee with a Pending referral (tracked through the referrer's link), optionally pre-assigned an event. */
async function referee(rewardEventName?: string) {
  const id = `referee-${++seq}`;
  const { trackingId } = await trackOverRest(call, projectId, referrer, id, rewardEventName);
  return { id, trackingId };
}

type Posted = { status: number; headers: Headers; text: string; json: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

async function post(path: string, body: string, headers: Record<string, string>, method = "POST"): Promise<Posted> {
  const res = await fetch(`${origin}${path}`, { method, headers: { "content-type": "application/json", ...headers }, body: method === "GET" ? undefined : body });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

type StripeOptions = { secret?: string; timestamp?: number; tamper?: (payload: string) => string; token?: string; signature?: string | null };

/** An event as Stripe sends it: the JSON and its `Stripe-Signature`, made by the stripe package's test helper. */
async function postStripe(event: Record<string, unknown>, opts: StripeOptions = {}) {
  const payload = JSON.stringify({ object: "event", api_version: "2025-03-31.basil", created: Math.floor(Date.now() / 1000), ...event });
  return postSignedStripe(payload, opts);
}

async function postSignedStripe(payload: string, opts: StripeOptions = {}) {
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? STRIPE_SECRET, ...(opts.timestamp ? { timestamp: opts.timestamp } : {}) });
  const sent = opts.tamper ? opts.tamper(payload) : payload;
  const signature: Record<string, string> = opts.signature === undefined ? { "stripe-signature": header } : opts.signature === null ? {} : { "stripe-signature": opts.signature };
  return post(`/api/v1/hooks/${opts.token ?? token}/stripe`, sent, signature);
}

const checkoutCompleted = (id: string, session: Record<string, unknown>, livemode = false) => ({
  id,
  type: "checkout.session.completed",
  livemode,
  data: { object: { id: `cs_${id}`, object: "checkout.session", payment_status: "paid", mode: "payment", metadata: {}, ...session } },
});

const invoicePaid = (id: string, invoice: Record<string, unknown>, livemode = true) => ({
  id,
  type: "invoice.paid",
  livemode,
  data: { object: { id: `in_${id}`, object: "invoice", billing_reason: "subscription_create", amount_paid: 1299, metadata: {}, ...invoice } },
});

async function postRevenueCat(event: Record<string, unknown>, authorization: string | null = RC_AUTH, to = token) {
  const body = JSON.stringify({ api_version: "1.0", event: { environment: "PRODUCTION", product_id: "pro_monthly", period_type: "NORMAL", aliases: [], ...event } });
  return post(`/api/v1/hooks/${to}/revenuecat`, body, authorization === null ? {} : { authorization });
}

const inboundCount = () => t.db.inboundEvent.count();
/** The referee's rewards (RewardHistory.refereeId has no relation: a user's id by their client id, across the test's projects). */
const refereeIds = async (clientProvidedId: string) => (await t.db.appUser.findMany({ where: { clientProvidedId }, select: { id: true } })).map((u) => u.id);
const rewardsOf = async (refereeClientId: string) => t.db.rewardHistory.count({ where: { refereeId: { in: await refereeIds(refereeClientId) } } });
const deliveriesOf = (trackingId: string) => t.db.delivery.findMany({ where: { trackingId }, select: { webhookId: true, eventName: true } });
const eventId = () => `evt_${Date.now().toString(36)}${++seq}`;

describe("POST /api/v1/hooks/{token}/stripe", () => {
  it("rewards a paid Checkout Session's referee (client_reference_id), routed as Sandbox", async () => {
    const { id, trackingId } = await referee();
    const res = await postStripe(checkoutCompleted(eventId(), { client_reference_id: id }));
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ received: true, outcome: "rewarded" });
    expect(await deliveriesOf(trackingId)).toEqual([{ webhookId: sandboxHook, eventName: "checkout.session.completed" }]);
    const [got] = await waitUntil(async () => sandbox.requests.filter((r) => r.body.includes(trackingId)), (r) => r.length === 1, { what: "the sandbox delivery" });
    expect(JSON.parse(got!.body)).toMatchObject({ event: "checkout.session.completed", refereeId: id, referrerId: "referrer-1", trackingId, rewardStatus: "Completed" });
    expect(production.requests.some((r) => r.body.includes(trackingId))).toBe(false);
  });

  it("rewards the first paid invoice of a subscription under its mapped name, routed as Production, the referee from the subscription's metadata", async () => {
    const { id, trackingId } = await referee();
    const res = await postStripe(invoicePaid(eventId(), { parent: { type: "subscription_details", subscription_details: { metadata: { referloop_user_id: id } } } }));
    expect(res.json).toEqual({ received: true, outcome: "rewarded" });
    expect(await deliveriesOf(trackingId)).toEqual([{ webhookId: productionHook, eventName: "purchase" }]);
    await waitUntil(async () => production.requests.filter((r) => r.body.includes(trackingId)), (r) => r.length === 1, { what: "the production delivery" });
  });

  it("reads the referee from the session's metadata when there is no client_reference_id, and from the invoice's own metadata", async () => {
    const a = await referee();
    expect((await postStripe(checkoutCompleted(eventId(), { metadata: { referloop_user_id: a.id } }))).json.outcome).toBe("rewarded");
    const b = await referee();
    expect((await postStripe(invoicePaid(eventId(), { metadata: { referloop_user_id: b.id } }))).json.outcome).toBe("rewarded");
    const c = await referee();
    expect((await postStripe(invoicePaid(eventId(), { subscription_details: { metadata: { referloop_user_id: c.id } } }))).json.outcome).toBe("rewarded");
  });

  it("ignores what is not a first payment, and says why", async () => {
    const { id } = await referee();
    const cases: [Record<string, unknown>, string][] = [
      [checkoutCompleted(eventId(), { client_reference_id: id, payment_status: "unpaid" }), "not_paid"],
      [checkoutCompleted(eventId(), { client_reference_id: id, payment_status: "no_payment_required" }), "not_paid"],
      [invoicePaid(eventId(), { metadata: { referloop_user_id: id }, billing_reason: "subscription_cycle" }), "not_a_conversion"],
      [invoicePaid(eventId(), { metadata: { referloop_user_id: id }, amount_paid: 0 }), "not_paid"],
      [{ id: eventId(), type: "customer.created", livemode: false, data: { object: { id: "cus_1", object: "customer", metadata: { referloop_user_id: id } } } }, "not_a_conversion"],
      [checkoutCompleted(eventId(), {}), "no_referee"],
    ];
    for (const [event, reason] of cases) {
      const res = await postStripe(event);
      expect(res.json, JSON.stringify(event)).toEqual({ received: true, outcome: "ignored", reason });
    }
    expect(await rewardsOf(id)).toBe(0);
  });

  it("ignores a user it does not know and a user without a pending referral", async () => {
    expect((await postStripe(checkoutCompleted(eventId(), { client_reference_id: "nobody-here" }))).json).toEqual({ received: true, outcome: "ignored", reason: "unknown_user" });
    await createAppUserOverRest(call, projectId, "no-referral");
    expect((await postStripe(checkoutCompleted(eventId(), { client_reference_id: "no-referral" }))).json).toEqual({ received: true, outcome: "ignored", reason: "no_pending_referral" });
    // The referrer is a known user, but nobody referred them.
    expect((await postStripe(checkoutCompleted(eventId(), { client_reference_id: "referrer-1" }))).json.reason).toBe("no_pending_referral");
  });

  it("refuses with the eligibility reason when the referral was reserved for another event, and leaves it Pending", async () => {
    const { id, trackingId } = await referee("signup_completed");
    const res = await postStripe(checkoutCompleted(eventId(), { client_reference_id: id }));
    expect(res.json).toEqual({ received: true, outcome: "refused", reason: "event_mismatch" });
    expect((await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).status).toBe("Pending");
    // A pre-assigned name can be the mapped one: invoice.paid is reported as "purchase".
    const reserved = await referee("purchase");
    expect((await postStripe(invoicePaid(eventId(), { metadata: { referloop_user_id: reserved.id } }))).json.outcome).toBe("rewarded");
  });

  it("runs for the referee's most recent Pending referral", async () => {
    const other = await createAppUserOverRest(call, projectId, "referrer-2");
    const id = `referee-${++seq}`;
    await trackOverRest(call, projectId, referrer, id);
    const { trackingId: latest } = await trackOverRest(call, projectId, other, id);
    await t.db.campaign.update({ where: { id: campaignId }, data: { attributionModel: "last" } });
    try {
      expect((await postStripe(checkoutCompleted(eventId(), { client_reference_id: id }))).json.outcome).toBe("rewarded");
      expect((await t.db.rewardHistory.findFirstOrThrow({ where: { refereeId: { in: await refereeIds(id) } } })).trackingId).toBe(latest);
    } finally {
      await t.db.campaign.update({ where: { id: campaignId }, data: { attributionModel: "first" } });
    }
  });

  it("refuses a tampered body, a stale or missing signature and the wrong secret with 400, and records nothing", async () => {
    const { id } = await referee();
    const event = checkoutCompleted(eventId(), { client_reference_id: id });
    const before = await inboundCount();
    const refusals = [
      await postStripe(event, { tamper: (p) => p.replace(id, "referrer-1") }),
      await postStripe(event, { timestamp: Math.floor(Date.now() / 1000) - 301 }),
      await postStripe(event, { secret: "whsec_someone_elses_secret_0123456789" }),
      await postStripe(event, { signature: null }),
      await postStripe(event, { signature: "t=1,v1=deadbeef" }),
    ];
    for (const res of refusals) {
      expectProblem(res, 400);
      expect(res.json.type).toBe("urn:referloop:problem:invalid-signature");
    }
    expect(refusals[1]!.json.detail).toMatch(/tolerance/i);
    expect(await inboundCount()).toBe(before);
    expect(await rewardsOf(id)).toBe(0);
    // The same event, signed right, goes through.
    expect((await postStripe(event)).json.outcome).toBe("rewarded");
  });

  it("answers 400 for signed bytes that are not JSON or not an event, naming the field", async () => {
    const malformed = await postSignedStripe("{not json");
    expectProblem(malformed, 400);
    expect(malformed.json.type).toBe("urn:referloop:problem:malformed-json");
    expectProblem(await postSignedStripe(JSON.stringify({ id: eventId(), type: "invoice.paid", data: { object: {} } })), 400, ["livemode"]);
    expectProblem(await postSignedStripe(JSON.stringify({ id: "evt_\u0000", type: "invoice.paid", livemode: false, data: { object: {} } })), 400, ["providerEventId"]);
  });
});

describe("POST /api/v1/hooks/{token}/revenuecat", () => {
  it("rewards an INITIAL_PURCHASE for app_user_id with the right Authorization, routed as Production", async () => {
    const { id, trackingId } = await referee();
    const res = await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", app_user_id: id });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toEqual({ received: true, outcome: "rewarded" });
    expect(await deliveriesOf(trackingId)).toEqual([{ webhookId: productionHook, eventName: "INITIAL_PURCHASE" }]);
  });

  it("routes SANDBOX as Sandbox and finds the referee among the aliases", async () => {
    const { id, trackingId } = await referee();
    const res = await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", environment: "SANDBOX", app_user_id: "$RCAnonymousID:abc", aliases: ["$RCAnonymousID:abc", id] });
    expect(res.json.outcome).toBe("rewarded");
    expect(await deliveriesOf(trackingId)).toEqual([{ webhookId: sandboxHook, eventName: "INITIAL_PURCHASE" }]);
  });

  it("refuses a missing or wrong Authorization with 401, and records nothing", async () => {
    const { id } = await referee();
    const before = await inboundCount();
    for (const auth of [null, "", "Bearer wrong", `${RC_AUTH}x`, RC_AUTH.toLowerCase()]) {
      const res = await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", app_user_id: id }, auth);
      expectProblem(res, 401);
    }
    expect(await inboundCount()).toBe(before);
    expect(await rewardsOf(id)).toBe(0);
  });

  it("counts a free trial's first paid renewal, not the trial's start nor later renewals", async () => {
    // is_trial_conversion, RevenueCat's own word on a renewal.
    const a = await referee();
    expect((await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", app_user_id: a.id, period_type: "TRIAL" })).json).toEqual({
      received: true,
      outcome: "ignored",
      reason: "not_paid",
    });
    expect((await postRevenueCat({ id: crypto.randomUUID(), type: "RENEWAL", app_user_id: a.id, is_trial_conversion: false })).json.reason).toBe("not_a_conversion");
    expect((await postRevenueCat({ id: crypto.randomUUID(), type: "RENEWAL", app_user_id: a.id, is_trial_conversion: true })).json.outcome).toBe("rewarded");
    // Without the field: the last recorded event for the user and product was a trial.
    const b = await referee();
    await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", app_user_id: b.id, period_type: "TRIAL", product_id: "pro_yearly" });
    expect((await postRevenueCat({ id: crypto.randomUUID(), type: "RENEWAL", app_user_id: b.id, product_id: "pro_monthly" })).json.reason).toBe("not_a_conversion");
    expect((await postRevenueCat({ id: crypto.randomUUID(), type: "RENEWAL", app_user_id: b.id, product_id: "pro_yearly" })).json.outcome).toBe("rewarded");
    // A renewal with no trial before it is not a first payment.
    const c = await referee();
    expect((await postRevenueCat({ id: crypto.randomUUID(), type: "RENEWAL", app_user_id: c.id })).json.reason).toBe("not_a_conversion");
    expect((await postRevenueCat({ id: crypto.randomUUID(), type: "CANCELLATION", app_user_id: c.id })).json.reason).toBe("not_a_conversion");
  });

  it("answers 400 for malformed JSON and for a body that is not an event", async () => {
    const malformed = await post(`/api/v1/hooks/${token}/revenuecat`, "{oops", { authorization: RC_AUTH });
    expectProblem(malformed, 400);
    expect(malformed.json.type).toBe("urn:referloop:problem:malformed-json");
    expectProblem(await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", environment: "STAGING" }), 400, ["event.environment"]);
    expectProblem(await post(`/api/v1/hooks/${token}/revenuecat`, "[]", { authorization: RC_AUTH }), 400, ["(body)"]);
    expectProblem(await post(`/api/v1/hooks/${token}/revenuecat`, '{"event":{"type":"INITIAL_PURCHASE","environment":"PRODUCTION"}}', { authorization: RC_AUTH }), 400, ["event.id"]);
  });
});

describe("duplicates", () => {
  it("answers a provider's retry of the same event id with 200 and changes nothing", async () => {
    const { id, trackingId } = await referee();
    const event = checkoutCompleted(eventId(), { client_reference_id: id });
    expect((await postStripe(event)).json).toEqual({ received: true, outcome: "rewarded" });
    const again = await postStripe(event);
    expect(again.status).toBe(200);
    expect(again.json).toEqual({ received: true, outcome: "rewarded", duplicate: true });
    expect(await rewardsOf(id)).toBe(1);
    expect(await deliveriesOf(trackingId)).toHaveLength(1);
    expect(await t.db.inboundEvent.count({ where: { providerEventId: event.id } })).toBe(1);
  });

  it("rewards once when 20 deliveries of one event arrive at once", async () => {
    const { id, trackingId } = await referee();
    const rcId = crypto.randomUUID();
    const answers = await Promise.all(Array.from({ length: 20 }, () => postRevenueCat({ id: rcId, type: "INITIAL_PURCHASE", app_user_id: id })));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => !a.json.duplicate).map((a) => a.json.outcome)).toEqual(["rewarded"]);
    for (const a of answers.filter((x) => x.json.duplicate)) expect(["rewarded", "processing"]).toContain(a.json.outcome);
    expect(await rewardsOf(id)).toBe(1);
    expect(await deliveriesOf(trackingId)).toHaveLength(1);
    expect(await t.db.inboundEvent.findMany({ where: { providerEventId: rcId }, select: { outcome: true } })).toEqual([{ outcome: "rewarded" }]);
  });
});

describe("tokens and configuration", () => {
  it("answers 404 for an unknown token, and for a provider the project has not set up", async () => {
    const unknown = await postStripe(checkoutCompleted(eventId(), {}), { token: "ih_unknowntoken0000000000000000000000000000000" });
    expectProblem(unknown, 404);
    expectProblem(await postStripe(checkoutCompleted(eventId(), {}), { token: "not-even-a-token" }), 404);
    const other = await createProjectOverRest(call, "Stripe only");
    const otherToken = (await call("PUT", `/projects/${other}/inbound-hooks`, { body: { stripeSigningSecret: STRIPE_SECRET } })).json.token;
    const rc = await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", app_user_id: "x" }, RC_AUTH, otherToken);
    expectProblem(rc, 404);
    expect(rc.json.detail).toBe(unknown.json.detail);
    expect((await postStripe(checkoutCompleted(eventId(), {}), { token: otherToken })).status).toBe(200);
    expectProblem(await post(`/api/v1/hooks/${token}/paypal`, "{}", {}), 404);
    expectProblem(await post(`/api/v1/hooks/${token}/stripe/extra`, "{}", {}), 404);
  });

  it("allows POST only", async () => {
    const res = await post(`/api/v1/hooks/${token}/stripe`, "", {}, "GET");
    expectProblem(res, 405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("stops the old token at once when it is rotated", async () => {
    const { id } = await referee();
    const rotated = await call("POST", `/projects/${projectId}/inbound-hooks/rotate-token`);
    const old = token;
    token = rotated.json.token;
    expectProblem(await postStripe(checkoutCompleted(eventId(), { client_reference_id: id }), { token: old }), 404);
    expectProblem(await postRevenueCat({ id: crypto.randomUUID(), type: "INITIAL_PURCHASE", app_user_id: id }, RC_AUTH, old), 404);
    expect((await postStripe(checkoutCompleted(eventId(), { client_reference_id: id }))).json.outcome).toBe("rewarded");
    expect(new URL(rotated.json.stripeUrl).pathname).toBe(`/api/v1/hooks/${token}/stripe`);
  });

  it("answers 413 for a body over 256 KiB, before reading it as an event", async () => {
    const res = await postSignedStripe(JSON.stringify({ padding: "x".repeat(MAX_BODY_BYTES) }));
    expectProblem(res, 413);
  });

  it("limits calls per token, with the RateLimit fields and Retry-After", async () => {
    const limited = await startDoor(testServices(t.db, { config: testConfig({ RATE_LIMIT_INBOUND_HOOK_PER_MINUTE: "2" }) }));
    try {
      const send = () => fetch(`${limited.origin}/api/v1/hooks/${token}/revenuecat`, { method: "POST", headers: { authorization: RC_AUTH }, body: "{}" });
      const first = await send();
      expect(first.headers.get("ratelimit-policy")).toBe('"inbound-hook";q=2;w=60');
      await send();
      const refused = await send();
      expect(refused.status).toBe(429);
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
      expect((await refused.json()).type).toBe("urn:referloop:problem:rate-limited");
    } finally {
      limited.server.closeAllConnections();
      await new Promise((resolve) => limited.server.close(resolve));
    }
  });
});

describe("GET /projects/{projectId}/inbound-events", () => {
  const list = async (query = "") => {
    const res = await call("GET", `/projects/${projectId}/inbound-events${query ? `?${query}` : ""}`);
    expect(res.status, res.text).toBe(200);
    return res.json as { items: Record<string, unknown>[]; page: number; pageSize: number; totalCount: number; hasNextPage: boolean };
  };

  it("lists every recorded event newest first, in the list envelope", async () => {
    const page = await list();
    expect(page).toMatchObject({ page: 1, pageSize: 20, hasNextPage: true });
    expect(page.totalCount).toBe(await t.db.inboundEvent.count({ where: { projectId } }));
    const created = page.items.map((i) => i.createdAt as string);
    expect(created).toEqual([...created].sort().reverse());
    expect(Object.keys(page.items[0]!).sort()).toEqual(
      ["createdAt", "environment", "eventName", "id", "outcome", "provider", "providerEventId", "reason", "refereeId", "trackingId", "type"],
    );
    const rotated = page.items[0]!;
    // The newest: the rotation test's reward.
    expect(rotated).toMatchObject({ provider: "stripe", type: "checkout.session.completed", environment: "Sandbox", outcome: "rewarded", reason: null, eventName: "checkout.session.completed" });
  });

  it("filters by provider, outcome, environment, type and search, together", async () => {
    expect((await list("provider=revenuecat&pageSize=100")).items.every((i) => i.provider === "revenuecat")).toBe(true);
    const refused = await list("outcome=refused");
    expect(refused.items.map((i) => i.reason)).toEqual(["event_mismatch"]);
    expect((await list("outcome=Ignored&environment=production&provider=stripe&pageSize=100")).items.every((i) => i.outcome === "ignored" && i.environment === "Production")).toBe(true);
    expect((await list("type=invoice.paid&outcome=rewarded")).items.every((i) => i.eventName === "purchase" && i.trackingId)).toBe(true);
    const one = (await list("outcome=rewarded")).items[0]!;
    expect((await list(`search=${one.providerEventId}`)).items.map((i) => i.id)).toEqual([one.id]);
    expect((await list(`search=${one.refereeId}`)).items.map((i) => i.id)).toContain(one.id);
    expect((await list("search=unknown-thing")).totalCount).toBe(0);
    const times = (await list("pageSize=100")).items.map((i) => i.createdAt as string).sort();
    expect((await list(`to=${times[0]}`)).totalCount).toBe(0);
  });

  it("refuses bad filters with a problem naming the field", async () => {
    const at = "2026-11-01T00:00:00Z";
    const bad = (q: string) => call("GET", `/projects/${projectId}/inbound-events?${q}`);
    expectProblem(await bad("provider=paypal"), 400, ["provider"]);
    expectProblem(await bad("outcome=done"), 400, ["outcome"]);
    expectProblem(await bad("environment=Staging"), 400, ["environment"]);
    expectProblem(await bad(`from=2026-11-02T00:00:00Z&to=${at}`), 400, ["from"]);
    expectProblem(await bad("pageSize=101"), 400, [["pageSize", "too_big"]]);
    expectProblem(await bad("search=%20"), 400, ["search"]);
  });
});

describe("a flood of failed credentials", () => {
  it("spends a budget of its own: a correctly signed Stripe event and a RevenueCat event with the right Authorization still land", async () => {
    const limited = await startDoor(testServices(t.db, { config: testConfig({ RATE_LIMIT_INBOUND_HOOK_PER_MINUTE: "2" }) }));
    const to = (provider: string, body: string, headers: Record<string, string>) =>
      fetch(`${limited.origin}/api/v1/hooks/${token}/${provider}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    try {
      const stripeReferee = await referee();
      const rcReferee = await referee();
      const payload = JSON.stringify({ object: "event", api_version: "2025-03-31.basil", created: Math.floor(Date.now() / 1000), ...checkoutCompleted(eventId(), { client_reference_id: stripeReferee.id }) });
      const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: "whsec_not_the_projects_secret_0123" });
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        statuses.push((await to("stripe", payload, { "stripe-signature": forged })).status);
        statuses.push((await to("revenuecat", "{}", { authorization: "Bearer a-guess" })).status);
      }
      // The stranger's own budget runs out (429); the provider's does not.
      expect(statuses.slice(0, 2)).toEqual([400, 401]);
      expect(statuses.slice(-2)).toEqual([429, 429]);
      const signed = await to("stripe", payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET }) });
      expect(signed.status).toBe(200);
      expect(((await signed.json()) as { outcome: string }).outcome).toBe("rewarded");
      const rcBody = JSON.stringify({ api_version: "1.0", event: { id: eventId(), type: "INITIAL_PURCHASE", app_user_id: rcReferee.id, environment: "PRODUCTION", product_id: "pro_monthly", period_type: "NORMAL", aliases: [] } });
      const rc = await to("revenuecat", rcBody, { authorization: RC_AUTH });
      expect(rc.status).toBe(200);
      expect(((await rc.json()) as { outcome: string }).outcome).toBe("rewarded");
      expect(await rewardsOf(stripeReferee.id)).toBe(1);
      expect(await rewardsOf(rcReferee.id)).toBe(1);
    } finally {
      limited.server.closeAllConnections();
      await new Promise((resolve) => limited.server.close(resolve));
    }
  });
});
