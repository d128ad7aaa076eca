import { z } from "zod";
import { checkStorable, candidates, ignored, readProviderBody, type InboundConversion } from "./inbound-conversion";

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
  });
}

function stripeConversion(type: string, obj: Record<string, unknown>): InboundConversion["conversion"] {
  if (type === "checkout.session.completed") return obj.payment_status === "paid" ? true : ignored("not_paid");
  if (type === "invoice.paid") {
    if (obj.billing_reason !== "subscription_create") return ignored("not_a_conversion");
    return obj.amount_paid === 0 ? ignored("not_paid") : true;
  }
  return ignored("not_a_conversion");
}
