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
