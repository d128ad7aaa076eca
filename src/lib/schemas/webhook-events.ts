import { z } from "zod";

/*
 * The event catalogue: what a webhook can subscribe to (its `events`), each delivery's type (sent in
 * the `X-Service-Event-Type` header, and as `type` in every body but reward.granted's, which stays
 * the spec's body field for field).
 */

/** Every event type a webhook can subscribe to. `milestone.reached` is the referrer portal's. */
export const WEBHOOK_EVENT_TYPES = ["reward.granted", "reward.revoked", "reward.held", "referral.tracked", "milestone.reached"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** What a webhook subscribes to when it does not say: today's one event, so existing receivers see no change. */
export const DEFAULT_WEBHOOK_EVENTS: WebhookEventType[] = ["reward.granted"];

/** The header each delivery carries its type in (the test event's is `referloop.test`). */
export const EVENT_TYPE_HEADER = "X-Service-Event-Type";

/** When each event is sent, in words (the API reference and the dashboard's webhook form). */
export const WEBHOOK_EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "reward.granted": "A reward was granted: the referral completed (the spec's reward delivery, its body unchanged).",
  "reward.revoked": "A granted reward was taken back (a revoke call, a refund, a dispute, a cancellation in trial).",
  "reward.held": "A reward waits for its hold to end or for a review.",
  "referral.tracked": "A referral was tracked: a referee arrived through a referrer's link or code.",
  "milestone.reached": "A referrer reached a milestone of the campaign (the referrer portal).",
};

export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).describe("An event type of the catalogue.");

/** A webhook's subscriptions: at least one type, each once (the order is not kept). */
export const webhookEventsSchema = z
  .array(webhookEventTypeSchema)
  .min(1, { error: "must name at least one event type" })
  .max(WEBHOOK_EVENT_TYPES.length)
  .refine((types) => new Set(types).size === types.length, { error: "must name each event type once" })
  .describe(`The event types this webhook receives: any of ${WEBHOOK_EVENT_TYPES.map((t) => `\`${t}\``).join(", ")}. Default \`["reward.granted"]\`.`)
  .meta({ examples: [["reward.granted", "reward.revoked"]] });

/*
 * The bodies of the catalogue's events beyond reward.granted (whose body is rewardDeliverySchema, the
 * spec's): each leads with its `type`. What the OpenAPI document's `webhooks` entries declare, and what
 * the writers put in the outbox (src/server/domain/referrals: revoke-referral, hold-reward, insert-tracking).
 */
const common = {
  trackingId: z.guid().describe("The referral tracking id: dedupe on it with the type (or on the delivery id)."),
  referrerId: z.string().nullable().describe("The referrer's clientProvidedId; null once erased."),
  refereeId: z.string().nullable().describe("The referee's clientProvidedId; null while unknown (an anonymous arrival) or once erased."),
  projectId: z.guid().describe("The project uniqueId."),
  campaignId: z.guid().describe("The campaign uniqueId."),
};
const EX = {
  trackingId: "c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f",
  referrerId: "user-1001",
  refereeId: "user-2002",
  projectId: "4f5d2c7e-8b1a-4c3d-9e2f-1a2b3c4d5e6f",
  campaignId: "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d",
};

export const rewardRevokedDeliverySchema = z
  .strictObject({
    type: z.literal("reward.revoked"),
    ...common,
    event: z.string().nullable().describe("The trigger event name the reward was granted for."),
    rewardClaimedAt: z.iso.datetime().nullable().describe("When the reward was granted."),
    revokedAt: z.iso.datetime().describe("When it was revoked."),
    reason: z.string().describe("Why, in words: the revoke call's `reason`, or the provider event (`Refunded in full: Stripe charge.refunded (evt_...)`)."),
    revokedBy: z.enum(["api", "dashboard", "stripe", "revenuecat"]).describe("What revoked it."),
    rewardStatus: z.literal("Revoked"),
  })
  .meta({
    id: "RewardRevokedDelivery",
    examples: [
      {
        type: "reward.revoked",
        ...EX,
        event: "first_purchase",
        rewardClaimedAt: "2026-11-09T10:41:27.480Z",
        revokedAt: "2026-11-12T08:00:00.000Z",
        reason: "Refunded in full: Stripe charge.refunded (evt_1QZx2bLkdIwHu7ix0f3GhJkL)",
        revokedBy: "stripe",
        rewardStatus: "Revoked",
      },
    ],
  });

export const rewardHeldDeliverySchema = z
  .strictObject({
    type: z.literal("reward.held"),
    ...common,
    event: z.string().describe("The trigger event name the reward would be granted for."),
    reasons: z.array(z.enum(["disposable_email", "same_device", "hold"])).describe("Why it is held (the review queue's reasons)."),
    holdUntil: z.iso.datetime().nullable().describe("When a hold ends and the reward is granted by itself; null when a person must decide."),
    heldAt: z.iso.datetime(),
  })
  .meta({
    id: "RewardHeldDelivery",
    examples: [{ type: "reward.held", ...EX, event: "first_purchase", reasons: ["hold"], holdUntil: "2026-11-16T10:41:27.480Z", heldAt: "2026-11-09T10:41:27.480Z" }],
  });

export const referralTrackedDeliverySchema = z
  .strictObject({
    type: z.literal("referral.tracked"),
    ...common,
    referralCode: z.string().describe("The referrer's code the referee arrived through."),
    rewardEventName: z.string().nullable().describe("The pre-assigned qualifying event, if any."),
    trackedAt: z.iso.datetime(),
  })
  .meta({
    id: "ReferralTrackedDelivery",
    examples: [{ type: "referral.tracked", ...EX, referralCode: "K7p2Qx", rewardEventName: null, trackedAt: "2026-11-02T14:05:09.123Z" }],
  });
