import { z } from "zod";
import { checkStorable, candidates, ignored, readProviderBody, refsOf, type InboundConversion } from "./inbound-conversion";

/** Stripe's own default tolerance: a signature older than this (seconds) is refused as a replay. */
export const STRIPE_TOLERANCE_S = 300;

/** The Stripe metadata key naming the referee, on a Checkout Session, invoice or subscription. */
export const STRIPE_REFEREE_METADATA_KEY = "referloop_user_id";

const object = z.record(z.string(), z.unknown());

/** What is read of a Stripe event (it carries much more). */
const stripeEventSchema = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  livemode: z.boolean(),
  data: z.object({ object }),
});

const field = (value: unknown, ...path: string[]): unknown => {
  let at = value;
  for (const key of path) at = at && typeof at === "object" ? (at as Record<string, unknown>)[key] : undefined;
  return at;
};

/**
 * A verified Stripe event as a conversion. Conversions: `checkout.session.completed` whose
 * `payment_status` is `paid`, and `invoice.paid` of a subscription's first invoice (`billing_reason`
 * `subscription_create`) that charged something (a trial's first invoice is for 0 and is not a
 * payment). The referee: the session's `client_reference_id`, else `metadata.referloop_user_id` of the
 * session or invoice, else of the subscription (an invoice carries its subscription's metadata in
 * `subscription_details`, under `parent` since API version 2025-03-31).
 */
export function readStripeEvent(body: unknown): InboundConversion {
  const event = readProviderBody(stripeEventSchema, body);
  const obj = event.data.object;
  const key = STRIPE_REFEREE_METADATA_KEY;
  const refereeCandidates = candidates([
    obj.object === "checkout.session" || event.type.startsWith("checkout.session.") ? obj.client_reference_id : undefined,
    field(obj, "metadata", key),
    field(obj, "subscription_details", "metadata", key),
    field(obj, "parent", "subscription_details", "metadata", key),
  ]);
  return checkStorable({
    provider: "stripe",
    providerEventId: event.id,
    type: event.type,
    environment: event.livemode ? "Production" : "Sandbox",
    refereeCandidates,
    conversion: stripeConversion(event.type, obj),
    refs: stripeRefs(event.type, obj),
    reversal: stripeReversal(event.type, obj),
  });
}

/**
 * What the object is about, most specific first: a conversion keeps them, a reversal looks its
 * conversion up by them. A charge and a dispute name their payment intent (and a charge its invoice);
 * an invoice, its payment intent, subscription and customer; a session, its payment intent, invoice,
 * subscription and customer; a subscription, itself and its customer.
 */
function stripeRefs(type: string, obj: Record<string, unknown>): string[] {
  const subscription = obj.subscription ?? field(obj, "parent", "subscription_details", "subscription");
  if (type.startsWith("charge.dispute.")) return refsOf([obj.payment_intent, obj.charge]);
  if (type.startsWith("charge.")) return refsOf([obj.payment_intent, obj.invoice, obj.id, obj.customer]);
  if (type.startsWith("customer.subscription.")) return refsOf([obj.id, obj.customer]);
  return refsOf([obj.payment_intent, obj.invoice, obj.id, subscription, obj.customer]);
}

/**
 * The reversals: `charge.refunded` when the charge is refunded in full (`refunded: true`), a partial
 * refund revoking nothing; `charge.dispute.created`; `customer.subscription.deleted` of a subscription
 * still in its trial (cancelled before `trial_end`).
 */
function stripeReversal(type: string, obj: Record<string, unknown>): InboundConversion["reversal"] {
  if (type === "charge.refunded") return obj.refunded === true ? "refund" : ignored("partial_refund");
  if (type === "charge.dispute.created") return "dispute";
  if (type === "customer.subscription.deleted") {
    const trialEnd = typeof obj.trial_end === "number" ? obj.trial_end : null;
    const cancelled = [obj.canceled_at, obj.ended_at].find((t): t is number => typeof t === "number");
    return trialEnd !== null && cancelled !== undefined && cancelled < trialEnd ? "trialCancellation" : ignored("not_in_trial");
  }
  return undefined;
}

function stripeConversion(type: string, obj: Record<string, unknown>): InboundConversion["conversion"] {
  if (type === "checkout.session.completed") return obj.payment_status === "paid" ? true : ignored("not_paid");
  if (type === "invoice.paid") {
    if (obj.billing_reason !== "subscription_create") return ignored("not_a_conversion");
    return obj.amount_paid === 0 ? ignored("not_paid") : true;
  }
  return ignored("not_a_conversion");
}
