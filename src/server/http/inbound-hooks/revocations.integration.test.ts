import http from "node:http";
import type { AddressInfo } from "node:net";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Services } from "@/server/api/trpc/context";
import { answerRest } from "@/server/api/rest/handle-rest-request";
import { createEmbeddedWorker } from "@/server/jobs/embedded-worker";
import { createLogger } from "@/server/observability/logger";
import { testAttemptOptions, testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createAppUserOverRest, createProjectOverRest, restClientForNewOrg, trackOverRest, type RestClient } from "@/test/rest";
import { waitUntil } from "@/test/wait";
import { startReceiver, type Receiver } from "@/test/webhook-receiver";
import { createFrontDoor } from "../front-door";
import { inboundHookRoute } from "./answer-inbound-hook";

/*
 * Provider-driven revocation, as Stripe and RevenueCat call the hooks (real HTTP, Stripe's signatures by
 * the `stripe` package's test helper): a full refund, a dispute and a cancellation in trial revoke the
 * referral their conversion completed, found by the ids that conversion carried; everything else is
 * `ignored` with why, and a provider's retry revokes once. No worker runs until the last test, which
 * starts one: what was revoked while it was down is delivered after, once.
 */

const stripe = new Stripe("sk_test_not_used_offline");
const STRIPE_SECRET = "whsec_revocation_test_0123456789abcdef";
const RC_AUTH = "Bearer rc-revocation-test-0123456789";

let t: TestDb;
let call: RestClient;
let services: Services;
let server: http.Server;
let origin: string;
let receiver: Receiver;
let projectId: string;
let token: string;
let referrer: { referralCode: string };
let seq = 0;

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  services = testServices(t.db);
  const door = createFrontDoor({
    log: createLogger({ logLevel: "silent", devServer: false }),
    accessLog: false,
    routes: [inboundHookRoute(services), { path: "/api/v1/", handle: (request) => answerRest(request, services) }],
    fallback: async (_req, res) => void res.writeHead(404).end(),
  });
  server = http.createServer(door);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  receiver = await startReceiver();
  projectId = await createProjectOverRest(call, "Refunds");
  const { campaignId } = (await call("GET", `/projects/${projectId}`)).json;
  const hook = await call("POST", `/projects/${projectId}/webhooks/${campaignId}`, {
    body: { name: "all", url: receiver.url, secret: "revocation-webhook-secret-0123456789", events: ["reward.revoked"] },
  });
  expect(hook.status, hook.text).toBe(201);
  token = (await call("GET", `/projects/${projectId}/inbound-hooks`)).json.token;
  await call("PUT", `/projects/${projectId}/inbound-hooks`, { body: { stripeSigningSecret: STRIPE_SECRET, revenueCatAuthorization: RC_AUTH } });
  referrer = await createAppUserOverRest(call, projectId, "referrer-1");
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await receiver.close();
  await t.drop();
});

async function referee() {
  const id = `referee-${++seq}`;
  const { trackingId } = await trackOverRest(call, projectId, referrer, id);
  return { id, trackingId };
}

async function post(path: string, body: string, headers: Record<string, string>) {
  const res = await fetch(`${origin}${path}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
  return { status: res.status, json: (await res.json()) as Record<string, unknown> };
}

const eventId = () => `evt_rev${++seq}`;

/** An event as Stripe sends it, signed by the stripe package's test helper. */
function postStripe(type: string, object: Record<string, unknown>, id = eventId()) {
  const payload = JSON.stringify({ id, object: "event", type, livemode: true, api_version: "2025-03-31.basil", created: Math.floor(Date.now() / 1000), data: { object } });
  return post(`/api/v1/hooks/${token}/stripe`, payload, { "stripe-signature": stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET }) });
}

function postRevenueCat(event: Record<string, unknown>) {
  const body = JSON.stringify({ api_version: "1.0", event: { id: eventId(), environment: "PRODUCTION", product_id: "pro_monthly", period_type: "NORMAL", aliases: [], ...event } });
  return post(`/api/v1/hooks/${token}/revenuecat`, body, { authorization: RC_AUTH });
}

const statusOf = async (trackingId: string) => (await t.db.referralTracking.findUniqueOrThrow({ where: { id: trackingId } })).status;
const revokedDeliveries = (trackingId: string) => t.db.delivery.count({ where: { trackingId, eventType: "reward.revoked" } });

/** A referee whose Checkout Session (paying payment intent `pi`) completed their referral. */
async function paidCheckout(pi: string, extra: Record<string, unknown> = {}) {
  const r = await referee();
  const res = await postStripe("checkout.session.completed", { id: `cs_${pi}`, object: "checkout.session", payment_status: "paid", client_reference_id: r.id, payment_intent: pi, customer: `cus_${pi}`, ...extra });
  expect(res.json).toEqual({ received: true, outcome: "rewarded" });
  return r;
}

describe("Stripe reversals", () => {
  it("revokes on a full refund of the completing payment; the same event again and a second refund change nothing", async () => {
    const { trackingId } = await paidCheckout("pi_full");
    const refund = { id: "ch_full", object: "charge", payment_intent: "pi_full", amount: 1299, amount_refunded: 1299, refunded: true, customer: "cus_pi_full" };
    const id = eventId();
    const first = await postStripe("charge.refunded", refund, id);
    expect(first).toEqual({ status: 200, json: { received: true, outcome: "revoked", reason: "refund" } });
    expect(await statusOf(trackingId)).toBe("Revoked");
    expect(await t.db.rewardHistory.count({ where: { trackingId } })).toBe(0);
    const detail = (await call("GET", `/projects/${projectId}/referrals/${trackingId}`)).json;
    expect(detail.revocation).toMatchObject({ revokedBy: "stripe", reason: expect.stringContaining(id) });
    const row = await t.db.inboundEvent.findFirstOrThrow({ where: { providerEventId: id } });
    expect(row).toMatchObject({ outcome: "revoked", reason: "refund", trackingId });

    expect((await postStripe("charge.refunded", refund, id)).json).toEqual({ received: true, outcome: "revoked", reason: "refund", duplicate: true });
    expect((await postStripe("charge.refunded", refund)).json).toEqual({ received: true, outcome: "ignored", reason: "already_revoked" });
    expect(await revokedDeliveries(trackingId)).toBe(1);
  });

  it("ignores a partial refund and a refund of a charge that completed no referral, with 200", async () => {
    const { trackingId } = await paidCheckout("pi_partial");
    const partial = await postStripe("charge.refunded", { id: "ch_p", object: "charge", payment_intent: "pi_partial", amount: 1299, amount_refunded: 300, refunded: false });
    expect(partial).toEqual({ status: 200, json: { received: true, outcome: "ignored", reason: "partial_refund" } });
    const stranger = await postStripe("charge.refunded", { id: "ch_x", object: "charge", payment_intent: "pi_nobody", amount: 500, amount_refunded: 500, refunded: true });
    expect(stranger).toEqual({ status: 200, json: { received: true, outcome: "ignored", reason: "no_matching_referral" } });
    expect(await statusOf(trackingId)).toBe("Completed");
  });

  it("revokes on a dispute of the payment an invoice completed with", async () => {
    const r = await referee();
    const paid = await postStripe("invoice.paid", {
      id: "in_disputed", object: "invoice", billing_reason: "subscription_create", amount_paid: 1299, payment_intent: "pi_disputed", customer: "cus_d",
      metadata: { referloop_user_id: r.id },
    });
    expect(paid.json.outcome).toBe("rewarded");
    const dispute = await postStripe("charge.dispute.created", { id: "dp_1", object: "dispute", charge: "ch_disputed", payment_intent: "pi_disputed", amount: 1299, reason: "fraudulent" });
    expect(dispute.json).toEqual({ received: true, outcome: "revoked", reason: "dispute" });
    expect(await statusOf(r.trackingId)).toBe("Revoked");
  });

  it("revokes on a subscription cancelled in its trial, not on one cancelled after", async () => {
    const now = Math.floor(Date.now() / 1000);
    const r = await referee();
    const subscription = { subscription_details: { subscription: "sub_trial", metadata: { referloop_user_id: r.id } } };
    expect((await postStripe("invoice.paid", { id: "in_trial", object: "invoice", billing_reason: "subscription_create", amount_paid: 500, parent: subscription })).json.outcome).toBe("rewarded");
    const after = await postStripe("customer.subscription.deleted", { id: "sub_trial", object: "subscription", status: "canceled", trial_end: now - 100, canceled_at: now });
    expect(after.json).toEqual({ received: true, outcome: "ignored", reason: "not_in_trial" });
    const during = await postStripe("customer.subscription.deleted", { id: "sub_trial", object: "subscription", status: "canceled", trial_end: now + 86_400, canceled_at: now });
    expect(during.json).toEqual({ received: true, outcome: "revoked", reason: "trialCancellation" });
    expect(await statusOf(r.trackingId)).toBe("Revoked");
  });

  it("follows the campaign's revokeOn: a refund revokes nothing while it is off", async () => {
    const off = await call("PUT", `/projects/${projectId}/campaign`, { body: { revokeOn: { refund: false } } });
    expect(off.status).toBe(200);
    expect(off.json.revokeOn).toEqual({ refund: false, dispute: true, trialCancellation: true });
    try {
      const { trackingId } = await paidCheckout("pi_off");
      const res = await postStripe("charge.refunded", { id: "ch_off", object: "charge", payment_intent: "pi_off", amount: 1, amount_refunded: 1, refunded: true });
      expect(res.json).toEqual({ received: true, outcome: "ignored", reason: "revocation_off" });
      expect(await statusOf(trackingId)).toBe("Completed");
    } finally {
      await call("PUT", `/projects/${projectId}/campaign`, { body: { revokeOn: { refund: true } } });
    }
  });
});

describe("RevenueCat reversals", () => {
  it("revokes on a CANCELLATION for CUSTOMER_SUPPORT (a refund) of the purchase's transaction, ignores an unsubscribe", async () => {
    const r = await referee();
    expect((await postRevenueCat({ type: "INITIAL_PURCHASE", app_user_id: r.id, transaction_id: "1000000001", original_transaction_id: "1000000001" })).json.outcome).toBe("rewarded");
    const unsubscribed = await postRevenueCat({ type: "CANCELLATION", app_user_id: r.id, cancel_reason: "UNSUBSCRIBE", transaction_id: "1000000001", original_transaction_id: "1000000001" });
    expect(unsubscribed.json).toEqual({ received: true, outcome: "ignored", reason: "not_a_conversion" });
    expect(await statusOf(r.trackingId)).toBe("Completed");
    const refunded = await postRevenueCat({ type: "CANCELLATION", app_user_id: r.id, cancel_reason: "CUSTOMER_SUPPORT", transaction_id: "1000000001", original_transaction_id: "1000000001" });
    expect(refunded.json).toEqual({ received: true, outcome: "revoked", reason: "refund" });
    expect(await statusOf(r.trackingId)).toBe("Revoked");
  });

  it("revokes on a cancellation in trial, matched by the original transaction", async () => {
    const r = await referee();
    expect((await postRevenueCat({ type: "RENEWAL", app_user_id: r.id, is_trial_conversion: true, transaction_id: "2000000002", original_transaction_id: "2000000001" })).json.outcome).toBe("rewarded");
    const cancelled = await postRevenueCat({ type: "CANCELLATION", app_user_id: r.id, period_type: "TRIAL", cancel_reason: "UNSUBSCRIBE", transaction_id: "2000000003", original_transaction_id: "2000000001" });
    expect(cancelled.json).toEqual({ received: true, outcome: "revoked", reason: "trialCancellation" });
  });
});

describe("with the worker down", () => {
  it("delivers each revocation made meanwhile once the worker runs, once, signed with its type", async () => {
    const pending = await t.db.delivery.findMany({ where: { eventType: "reward.revoked", status: "Pending" }, select: { id: true, trackingId: true } });
    expect(pending.length).toBeGreaterThanOrEqual(5);
    expect(receiver.requests).toHaveLength(0);
    const worker = createEmbeddedWorker({ db: t.db, pollIntervalMs: 50, attempt: { ...testAttemptOptions(), baseMs: 30 } });
    worker.start();
    try {
      await waitUntil(async () => receiver.requests, (r) => r.length >= pending.length, { what: "the revocations" });
      await waitUntil(async () => t.db.delivery.count({ where: { eventType: "reward.revoked", status: "Pending" } }), (n) => n === 0, { what: "every delivery recorded" });
    } finally {
      await worker.stop();
    }
    const got = receiver.requests.map((r) => ({ id: r.headers["x-service-delivery-id"], type: r.headers["x-service-event-type"], body: JSON.parse(r.body) }));
    expect(got.map((g) => g.id).sort()).toEqual(pending.map((p) => p.id).sort());
    for (const g of got) expect(g).toMatchObject({ type: "reward.revoked", body: { type: "reward.revoked", rewardStatus: "Revoked" } });
  });
});
