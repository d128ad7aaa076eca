import Stripe from "stripe";
import { STRIPE_TOLERANCE_S } from "@/server/domain/inbound-hooks/stripe-event";

export type StripeVerification = { ok: true; body: unknown } | { ok: false; why: "signature" | "json"; message: string };

/**
 * The body as JSON if `Stripe-Signature` signs exactly these bytes with the endpoint's signing secret
 * within the tolerance, by the official library (`stripe.webhooks.constructEvent`) over the raw body:
 * re-serialised JSON would not match.
 */
export function verifyStripe(rawBody: Uint8Array, header: string | null, secret: string): StripeVerification {
  try {
    return { ok: true, body: Stripe.webhooks.constructEvent(Buffer.from(rawBody), header ?? "", secret, STRIPE_TOLERANCE_S) };
  } catch (error) {
    if (error instanceof SyntaxError) return { ok: false, why: "json", message: error.message };
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) return { ok: false, why: "signature", message: error.message };
    throw error;
  }
}
