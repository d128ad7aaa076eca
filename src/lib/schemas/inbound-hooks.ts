import { z } from "zod";
import { InboundOutcome, InboundProvider } from "@/generated/prisma/enums";
import { caseInsensitive, exactText, pagingInput } from "./common";
import { CLIENT_PROVIDED_ID_MAX_LENGTH } from "./app-users";
import { EXAMPLE } from "./examples";
import { eventNameSchema, REWARD_ENVIRONMENTS, REWARD_REASONS, type RewardReason } from "./referrals";
import { instantSchema } from "./instant";

/*
 * Inbound conversions: the project's hooks that Stripe and RevenueCat call when a referee pays, their
 * settings (token, provider secrets, event-name mapping) and the record of every event they received.
 */

export const INBOUND_PROVIDERS = Object.values(InboundProvider) as [InboundProvider, ...InboundProvider[]];
export const INBOUND_OUTCOMES = Object.values(InboundOutcome) as [InboundOutcome, ...InboundOutcome[]];

export const INBOUND_PROVIDER_LABELS: Record<InboundProvider, string> = { stripe: "Stripe", revenuecat: "RevenueCat" };

/** The hook token's prefix: `ih_` + 43 base64url characters (256 bits). */
export const INBOUND_TOKEN_PREFIX = "ih_";

/** Why an event was `ignored` (the reward path did not run). A `refused` event carries the reward path's reason. */
export const INBOUND_IGNORE_REASONS = {
  not_a_conversion: "Not a conversion: an event type (or a renewal) that does not mean a first payment",
  not_paid: "Not paid: the checkout or invoice was not paid, or the purchase started a free trial",
  no_referee: "No referee: the event names no user (no client_reference_id, metadata.referloop_user_id or app_user_id)",
  unknown_user: "Unknown user: no app user of the project has that client id",
  no_pending_referral: "No pending referral: the user is the referee of no Pending tracking item",
  partial_refund: "Partial refund: only part of the charge was refunded, which revokes nothing",
  not_in_trial: "Not in trial: the subscription was cancelled after its trial, which revokes nothing",
  revocation_off: "Revocation off: the campaign's revokeOn setting does not revoke on this kind of event",
  no_matching_referral: "No matching referral: the refunded, disputed or cancelled payment completed no referral of the project",
  already_revoked: "Already revoked: the referral the payment completed was revoked before",
  not_revocable: "Not revocable: the referral the payment completed has no reward granted or held",
} as const;
export type InboundIgnoreReason = keyof typeof INBOUND_IGNORE_REASONS;
export type InboundReason = InboundIgnoreReason | RewardReason;

/** A stored reason in words: an ignore reason, else the reward path's reason. */
export function inboundReasonText(reason: string): string {
  if (reason in INBOUND_IGNORE_REASONS) return INBOUND_IGNORE_REASONS[reason as InboundIgnoreReason];
  if (reason in REWARD_REASONS) return REWARD_REASONS[reason as RewardReason].text;
  return reason.replace(/_/g, " ");
}

export const STRIPE_SECRET_PREFIX = "whsec_";
const SECRET_MAX_LENGTH = 500;
export const EVENT_TYPE_MAX_LENGTH = 100;
export const MAX_EVENT_NAME_MAPPINGS = 50;

/** A provider's event type as a mapping key: `invoice.paid`, `INITIAL_PURCHASE`. */
export const providerEventTypeSchema = z
  .string()
  .min(1)
  .max(EVENT_TYPE_MAX_LENGTH)
  .regex(/^[A-Za-z0-9_.:-]+$/, { error: "must be a provider event type: letters, digits, _ . : -" });

export const eventNamesSchema = z
  .record(providerEventTypeSchema, eventNameSchema)
  .refine((map) => Object.keys(map).length <= MAX_EVENT_NAME_MAPPINGS, { error: `must map at most ${MAX_EVENT_NAME_MAPPINGS} event types` })
  .describe(
    "Provider event type -> the event name reported to the reward path (exact, case-sensitive). An unmapped type is reported under its own name, so a referral link's `rewardEventName` can name either.",
  )
  .meta({ examples: [{ "invoice.paid": EXAMPLE.eventName, INITIAL_PURCHASE: EXAMPLE.eventName }] });

export const updateInboundHooksBody = z
  .object({
    stripeSigningSecret: z
      .string()
      .trim()
      .max(SECRET_MAX_LENGTH)
      .startsWith(STRIPE_SECRET_PREFIX, { error: `must be the endpoint's signing secret, starting with ${STRIPE_SECRET_PREFIX}` })
      .nullable()
      .optional()
      .describe("The signing secret of your Stripe webhook endpoint (`whsec_...`). Stored encrypted, never returned. `null` removes it: the Stripe hook answers 404."),
    revenueCatAuthorization: exactText(SECRET_MAX_LENGTH)
      .nullable()
      .optional()
      .describe(
        "The exact `Authorization` header value you set in RevenueCat's webhook settings (for example `Bearer <a long random value>`). Stored encrypted, never returned. `null` removes it: the RevenueCat hook answers 404.",
      ),
    eventNames: eventNamesSchema.optional().describe("Replaces the whole mapping when sent (send `{}` to clear it)."),
  })
  .meta({
    title: "UpdateInboundHooksRequest",
    description: "Any of the fields; those not sent are kept.",
    examples: [{ stripeSigningSecret: "whsec_3f9c0d1e2a4b5c6d7e8f9a0b1c2d3e4f", eventNames: { "invoice.paid": EXAMPLE.eventName } }],
  });

export type UpdateInboundHooks = z.output<typeof updateInboundHooksBody>;

const TOKEN_EXAMPLE = "ih_q3Zb7T0cJ9yV2mX5nK8pL1sR4uW6eA0dF3gH7jQ2zC9";

export const inboundHooksSchema = z
  .object({
    token: z.string().describe("The project's inbound hook token, the secret part of both URLs. Rotate it if it leaks."),
    stripeUrl: z.string().describe("Paste into Stripe: Developers -> Webhooks -> Add endpoint -> Endpoint URL."),
    revenueCatUrl: z.string().describe("Paste into RevenueCat: Project settings -> Integrations -> Webhooks -> Webhook URL."),
    stripeConfigured: z.boolean().describe("A Stripe signing secret is set: the Stripe hook accepts events."),
    revenueCatConfigured: z.boolean().describe("A RevenueCat Authorization value is set: the RevenueCat hook accepts events."),
    eventNames: z.record(z.string(), z.string()).describe("Provider event type -> reported event name."),
  })
  .meta({
    id: "InboundHooksDto",
    examples: [
      {
        token: TOKEN_EXAMPLE,
        stripeUrl: `https://referloop.example.com/api/v1/hooks/${TOKEN_EXAMPLE}/stripe`,
        revenueCatUrl: `https://referloop.example.com/api/v1/hooks/${TOKEN_EXAMPLE}/revenuecat`,
        stripeConfigured: true,
        revenueCatConfigured: false,
        eventNames: { "invoice.paid": EXAMPLE.eventName },
      },
    ],
  });

export type InboundHooksDto = z.output<typeof inboundHooksSchema>;

const instant = instantSchema();

/** The filter of the project's inbound events; every part optional, all together (AND); `to` exclusive. */
export const inboundEventFilterSchema = z
  .object({
    provider: caseInsensitive(INBOUND_PROVIDERS).describe("stripe or revenuecat (any case).").optional(),
    outcome: caseInsensitive(INBOUND_OUTCOMES).describe("rewarded, ignored, refused or revoked (any case).").optional(),
    environment: caseInsensitive(REWARD_ENVIRONMENTS).describe("Sandbox or Production (any case).").optional(),
    type: providerEventTypeSchema.describe("The provider's event type, exactly.").meta({ examples: ["invoice.paid"] }).optional(),
    search: z
      .string()
      .trim()
      .min(1, { error: "must not be blank" })
      .max(CLIENT_PROVIDED_ID_MAX_LENGTH)
      .describe("Matches exactly the provider's event id or the referee's client id. Surrounding spaces are ignored.")
      .meta({ examples: [EXAMPLE.referee.clientProvidedId] })
      .optional(),
    from: instant.describe("Events received at or after this instant (ISO 8601 with an offset).").meta({ examples: [EXAMPLE.at] }).optional(),
    to: instant.describe("Events received before this instant.").meta({ examples: [EXAMPLE.later] }).optional(),
  })
  .refine((f) => !f.from || !f.to || new Date(f.from) < new Date(f.to), { message: "must be before `to`", path: ["from"] });

export type InboundEventFilter = z.output<typeof inboundEventFilterSchema>;

export const inboundEventListQuery = inboundEventFilterSchema.safeExtend(pagingInput);

export const inboundEventDtoSchema = z
  .object({
    id: z.guid(),
    provider: z.enum(INBOUND_PROVIDERS),
    providerEventId: z.string().describe("Stripe's `evt_...` id, RevenueCat's `event.id`: one record per id."),
    type: z.string().describe("The provider's event type."),
    environment: z.enum(REWARD_ENVIRONMENTS).describe("Stripe `livemode: false` and RevenueCat `SANDBOX` are Sandbox."),
    refereeId: z.string().nullable().describe("The client id the event named as the referee; null when it named none."),
    eventName: z.string().nullable().describe("The event name reported to the reward path; null when it did not run."),
    trackingId: z.guid().nullable().describe("The referral tracking item the reward path ran for."),
    outcome: z.enum(INBOUND_OUTCOMES),
    reason: z
      .string()
      .nullable()
      .describe(
        `Why it was ignored (${Object.keys(INBOUND_IGNORE_REASONS)
          .map((r) => `\`${r}\``)
          .join(", ")}) or refused (the reward path's reason, as \`track-reward-event\` answers it); when revoked, the kind of reversal (\`refund\`, \`dispute\`, \`trialCancellation\`); null when rewarded.`,
      ),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: "InboundEventDto",
    examples: [
      {
        id: EXAMPLE.eventId,
        provider: "stripe",
        providerEventId: "evt_1QZx2bLkdIwHu7ix0f3GhJkL",
        type: "invoice.paid",
        environment: "Production",
        refereeId: EXAMPLE.referee.clientProvidedId,
        eventName: EXAMPLE.eventName,
        trackingId: EXAMPLE.trackingId,
        outcome: "rewarded",
        reason: null,
        createdAt: EXAMPLE.at,
      },
    ],
  });

export type InboundEventDto = z.output<typeof inboundEventDtoSchema>;

/** What a hook answers to an event it verified and understood. */
export type InboundAnswer = { received: true; outcome: InboundOutcome | "processing"; reason?: string; duplicate?: true };
