import { z } from "zod";
import { checkStorable, candidates, ignored, readProviderBody, refsOf, type InboundConversion } from "./inbound-conversion";

/** What is read of a RevenueCat webhook (it carries much more). */
const revenueCatBodySchema = z.object({
  event: z.object({
    id: z.string().min(1).max(255),
    type: z.string().min(1).max(255),
    environment: z.enum(["SANDBOX", "PRODUCTION"]),
    app_user_id: z.string().nullish(),
    aliases: z.array(z.unknown()).nullish(),
    product_id: z.string().max(255).nullish(),
    period_type: z.string().max(50).nullish(),
    is_trial_conversion: z.boolean().nullish(),
    transaction_id: z.string().max(255).nullish(),
    original_transaction_id: z.string().max(255).nullish(),
    cancel_reason: z.string().max(100).nullish(),
  }),
});

/**
 * A RevenueCat webhook as a conversion. Conversions: `INITIAL_PURCHASE`, unless it starts a free trial
 * (`period_type` `TRIAL`: nothing is paid yet); and `RENEWAL` when it is the first paid period after a
 * trial. RevenueCat says so itself on renewals, in `is_trial_conversion` (true: the previous period was
 * a free trial), which holds even when the trial began before this hook was set up; a renewal without
 * the field is decided by the last event recorded for the same user and product (its `period_type` was
 * `TRIAL`). The referee: the app user whose client id is `app_user_id`, else one of `aliases`.
 */
export function readRevenueCatEvent(body: unknown): InboundConversion {
  const { event } = readProviderBody(revenueCatBodySchema, body);
  return checkStorable({
    provider: "revenuecat",
    providerEventId: event.id,
    type: event.type,
    environment: event.environment === "PRODUCTION" ? "Production" : "Sandbox",
    refereeCandidates: candidates([event.app_user_id, ...(event.aliases ?? [])]),
    conversion: revenueCatConversion(event),
    productId: event.product_id ?? null,
    periodType: event.period_type ?? null,
    refs: refsOf([event.transaction_id, event.original_transaction_id]),
    reversal: revenueCatReversal(event),
  });
}

/**
 * The reversals: a `CANCELLATION` whose `cancel_reason` is `CUSTOMER_SUPPORT` is a refund (RevenueCat
 * reports refunds so); any other cancellation in a `TRIAL` period is a cancellation in trial; other
 * cancellations (an unsubscribe after the trial, a billing error) revoke nothing: `not_a_conversion`, as before.
 */
function revenueCatReversal(event: z.output<typeof revenueCatBodySchema>["event"]): InboundConversion["reversal"] {
  if (event.type !== "CANCELLATION") return undefined;
  if (event.cancel_reason === "CUSTOMER_SUPPORT") return "refund";
  return event.period_type === "TRIAL" ? "trialCancellation" : undefined;
}

function revenueCatConversion(event: z.output<typeof revenueCatBodySchema>["event"]): InboundConversion["conversion"] {
  if (event.type === "INITIAL_PURCHASE") return event.period_type === "TRIAL" ? ignored("not_paid") : true;
  if (event.type === "RENEWAL") {
    if (event.is_trial_conversion === true) return true;
    if (event.is_trial_conversion === false) return ignored("not_a_conversion");
    return "after_trial";
  }
  return ignored("not_a_conversion");
}
