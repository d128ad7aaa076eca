import { z } from "zod";
import { WebhookEnvironment } from "@/generated/prisma/enums";
import {
  isValidStandardForm,
  MAX_WEBHOOK_SECRET_LENGTH,
  MIN_WEBHOOK_SECRET_LENGTH,
  STANDARD_KEY_BYTE_RANGE,
  STANDARD_SECRET_PREFIX,
} from "@/lib/webhook-secrets";
import { caseInsensitive, httpUrl, jsonBoolean, requiredText } from "./common";
import { EXAMPLE } from "./examples";
import { webhookEventsSchema } from "./webhook-events";

export const WEBHOOK_ENVIRONMENTS = Object.values(WebhookEnvironment) as [WebhookEnvironment, ...WebhookEnvironment[]];
export const WEBHOOK_NAME_MAX_LENGTH = 200;
/** Why the service disabled a webhook by itself (its `disabledReason`), in words. */
export const WEBHOOK_DISABLED_REASONS = {
  receiver_gone: "The receiver answered 410 Gone, which says the endpoint no longer exists.",
  failing_5_days: "Every delivery to it failed for 5 days.",
} as const;
export type WebhookDisabledReason = keyof typeof WEBHOOK_DISABLED_REASONS;
export const WEBHOOK_DISABLED_REASON_CODES = Object.keys(WEBHOOK_DISABLED_REASONS) as [WebhookDisabledReason, ...WebhookDisabledReason[]];
/** A webhook all of whose attempts failed for this long is disabled. */
export const FAILING_DISABLE_DAYS = 5;

/** The delivery log's `limit`: 1 to 500, default 100 (spec: Limits). */
export const DEFAULT_LOG_LIMIT = 100;
export const MAX_LOG_LIMIT = 500;

/**
 * A client-chosen secret travels as `Authorization: Bearer <secret>`, so it must be a valid header value
 * that survives intact (visible ASCII, no spaces, which proxies may trim or fold), long enough to resist
 * guessing, and a `whsec_` value must be the Standard Webhooks form so receivers and the service agree
 * on the key.
 */
export const webhookSecretSchema = z
  .string()
  .min(MIN_WEBHOOK_SECRET_LENGTH, { error: `must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters; omit it to get a generated one`, abort: true })
  .max(MAX_WEBHOOK_SECRET_LENGTH, { abort: true })
  .regex(/^[\x21-\x7e]+$/, { error: "may contain visible ASCII characters only (no spaces)", abort: true })
  .refine(isValidStandardForm, {
    error: `a secret starting with ${STANDARD_SECRET_PREFIX} must be followed by the base64 of ${STANDARD_KEY_BYTE_RANGE.min} to ${STANDARD_KEY_BYTE_RANGE.max} bytes`,
  });

/** The fields of a webhook a client writes; the server adds the production-mode address rules. */
export const webhookFields = {
  name: requiredText(WEBHOOK_NAME_MAX_LENGTH),
  url: httpUrl(),
  secret: webhookSecretSchema,
  enabled: jsonBoolean(),
  environment: caseInsensitive(WEBHOOK_ENVIRONMENTS),
  events: webhookEventsSchema,
  autoRecover: jsonBoolean(),
};

/** How far back a webhook's recovery looks for deliveries that exhausted their attempts. */
export const RECOVERY_WINDOW_DAYS = 3;

const described = {
  name: webhookFields.name.describe("A label for people."),
  url: webhookFields.url.describe("https; private, loopback, link-local and metadata addresses are refused."),
  secret: webhookFields.secret.describe(
    `Sent as \`Authorization: Bearer <secret>\` and used to sign each delivery. ${MIN_WEBHOOK_SECRET_LENGTH} to ${MAX_WEBHOOK_SECRET_LENGTH} visible ASCII characters; a \`whsec_\` value must be a Standard Webhooks secret.`,
  ),
  enabled: webhookFields.enabled.describe("A disabled webhook receives nothing."),
  environment: webhookFields.environment.describe("Sandbox, Production or Both (any case): which reward calls reach this webhook."),
  events: webhookFields.events,
  autoRecover: webhookFields.autoRecover.describe(
    `Resend what failed while the endpoint was down: after the first successful delivery following failures, the deliveries that exhausted their attempts in the last ${RECOVERY_WINDOW_DAYS} days are sent again, paced, each at most once by recovery.`,
  ),
};

/*
 * Request bodies and queries (without the path's ids): see app-users.ts.
 */
export const createWebhookBody = z
  .object({
    ...described,
    secret: described.secret.optional().describe("Omit it to get a generated Standard Webhooks secret (`whsec_` + base64), returned in the response."),
    enabled: described.enabled.default(true),
    environment: described.environment.default("Both"),
    events: described.events.optional(),
    autoRecover: described.autoRecover.default(false),
  })
  .meta({ title: "CreateWebhookRequest", examples: [{ name: "Rewards to billing", url: EXAMPLE.webhookUrl, environment: "Production" }] });

export const updateWebhookBody = z
  .object({
    ...described,
    url: described.url.describe(
      "https; private, loopback, link-local and metadata addresses are refused. A different URL needs a new secret in the same request (`secret` or `generateSecret`), else a 400 naming `secret` (rule `required_with_new_url`): the current secret never follows the URL.",
    ),
    generateSecret: jsonBoolean().describe(
      "`true`: replace the secret with a generated Standard Webhooks secret, returned once in this answer's `secret`. Not together with `secret`.",
    ),
  })
  .partial()
  .meta({ title: "UpdateWebhookRequest", examples: [{ enabled: false }] });

export const deliveryLogQuery = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LOG_LIMIT)
    .default(DEFAULT_LOG_LIMIT)
    .describe(`1 to ${MAX_LOG_LIMIT} (default ${DEFAULT_LOG_LIMIT}).`)
    .meta({ examples: [DEFAULT_LOG_LIMIT] }),
});

/**
 * The body of a reward delivery (the spec's Events section, field for field and in its order): what
 * receivers get, and what the OpenAPI document's `webhooks` entry declares.
 */
export const rewardDeliverySchema = z
  .object({
    event: z.string().describe("The trigger event name that caused the reward."),
    referrerId: z.string().describe("The referrer's clientProvidedId."),
    refereeId: z.string().describe("The referee's clientProvidedId."),
    rewardClaimedAt: z.iso.datetime().describe("When the reward was granted (ISO 8601, UTC)."),
    trackingId: z.guid().describe("The referral tracking id: the idempotency key, dedupe on it."),
    rewardStatus: z.literal("Completed"),
    projectId: z.guid().describe("The project uniqueId."),
    projectName: z.string(),
    campaignId: z.guid().describe("The campaign uniqueId."),
  })
  .meta({
    id: "RewardDelivery",
    examples: [
      {
        event: EXAMPLE.eventName,
        referrerId: EXAMPLE.referrer.clientProvidedId,
        refereeId: EXAMPLE.referee.clientProvidedId,
        rewardClaimedAt: EXAMPLE.later,
        trackingId: EXAMPLE.trackingId,
        rewardStatus: "Completed",
        projectId: EXAMPLE.projectId,
        projectName: "Shop web",
        campaignId: EXAMPLE.campaignId,
      },
    ],
  });
