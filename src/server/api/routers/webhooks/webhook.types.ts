import { z } from "zod";
import { idInput, projectIdInput, withPath } from "@/lib/schemas/common";
import { rotateBody } from "@/lib/schemas/rotation";
import { EXAMPLE } from "@/lib/schemas/examples";
import {
  createWebhookBody,
  deliveryLogQuery,
  updateWebhookBody,
  WEBHOOK_DISABLED_REASON_CODES,
  WEBHOOK_DISABLED_REASONS,
  WEBHOOK_ENVIRONMENTS,
} from "@/lib/schemas/webhooks";
import { webhookEventTypeSchema } from "@/lib/schemas/webhook-events";

const environment = z.enum(WEBHOOK_ENVIRONMENTS);

const webhookExample = {
  id: EXAMPLE.webhookId,
  projectId: EXAMPLE.projectId,
  campaignId: EXAMPLE.campaignId,
  name: "Rewards to billing",
  url: EXAMPLE.webhookUrl,
  enabled: true,
  environment: "Production",
  events: ["reward.granted", "reward.revoked"],
  secretHint: "****9xQe",
  disabledReason: null,
  disabledAt: null,
  failingSince: null,
  autoRecover: false,
  previousSecretExpiresAt: null,
  health: { windowHours: 24, attempts: 412, successRate: 0.995, p50Ms: 84, p95Ms: 310, consecutiveFailures: 0, lastSuccessAt: EXAMPLE.later },
  createdAt: EXAMPLE.at,
  updatedAt: EXAMPLE.at,
} as const;

export const webhookDtoSchema = z
  .object({
    id: z.guid(),
    projectId: z.guid(),
    campaignId: z.guid(),
    name: z.string(),
    url: z.url(),
    enabled: z.boolean(),
    environment: environment.describe("Sandbox, Production or Both: which reward calls reach this webhook."),
    events: z.array(webhookEventTypeSchema).describe("The event types it receives (`X-Service-Event-Type` of each delivery): see the `webhooks` section of this document for each one's body."),
    secretHint: z.string().describe("The secret masked (`****abcd`); the secret itself is returned only on creation."),
    disabledReason: z
      .enum(WEBHOOK_DISABLED_REASON_CODES)
      .nullable()
      .describe(
        `Why the service disabled it by itself; null when enabled or disabled by a person. Enabling it again clears it. ${WEBHOOK_DISABLED_REASON_CODES.map((c) => `\`${c}\`: ${WEBHOOK_DISABLED_REASONS[c]}`).join(" ")}`,
      ),
    disabledAt: z.iso.datetime().nullable().describe("When it was disabled; null while enabled."),
    failingSince: z.iso.datetime().nullable().describe("Since when every attempt has failed; null while it succeeds."),
    autoRecover: z.boolean().describe("Whether deliveries that exhausted their attempts are resent after the endpoint recovers (see the create request)."),
    previousSecretExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe("While a rotation's overlap runs: until when deliveries also carry a signature made with the previous secret; null otherwise."),
    health: z
      .object({
        windowHours: z.number().int().min(1).describe("The window of `attempts`, `successRate`, `p50Ms` and `p95Ms`: the last 24 hours."),
        attempts: z.number().int().min(0),
        successRate: z.number().min(0).max(1).nullable().describe("Succeeded attempts over all attempts in the window, 0 to 1; null when there were none."),
        p50Ms: z.number().int().min(0).nullable().describe("Median response time of the window's answered attempts; null when none was answered."),
        p95Ms: z.number().int().min(0).nullable().describe("95th percentile response time of the window's answered attempts."),
        consecutiveFailures: z.number().int().min(0).describe("Failed attempts since the last successful one."),
        lastSuccessAt: z.iso.datetime().nullable().describe("When an attempt last succeeded; null if none ever did."),
      })
      .describe("How its receiver has been doing."),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "WebhookDto", examples: [webhookExample] });

export const webhookCreatedSchema = webhookDtoSchema
  .extend({ secret: z.string().describe("The secret, returned only in this response."), warning: z.string() })
  .meta({
    id: "WebhookCreatedDto",
    examples: [
      { ...webhookExample, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9xQe", warning: "Store this secret now: it is shown only once." },
    ],
  });

export const webhookUpdatedSchema = webhookDtoSchema
  .extend({
    secret: z.string().optional().describe("Present only when this request generated the secret (`generateSecret: true`): returned this once."),
    warning: z.string().optional(),
  })
  .meta({
    id: "WebhookUpdatedDto",
    examples: [webhookExample, { ...webhookExample, secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9xQe", warning: "Store this secret now: it is shown only once." }],
  });

export const deliveryLogSchema = z
  .object({
    id: z.guid().describe("The log entry id: the `{logId}` of the retry call."),
    webhookId: z.guid(),
    deliveryId: z.guid().describe("Stable across attempts: sent as `X-Service-Delivery-Id` and `webhook-id`."),
    attemptNumber: z.number().int().min(1),
    timestamp: z.iso.datetime(),
    eventType: z.string().describe("The trigger event name."),
    httpStatus: z.number().int().nullable().describe("Null when no response came back."),
    responseTimeMs: z.number().int().min(0),
    success: z.boolean(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().describe("The first KiB of the response body."),
    deliveryStatus: z.enum(["Pending", "Succeeded", "Failed"]).describe("Pending: a retry is scheduled; Failed: dead-lettered."),
    retryable: z.boolean().describe("True when the retry call accepts this entry."),
  })
  .meta({
    id: "DeliveryLogDto",
    examples: [
      {
        id: EXAMPLE.logId,
        webhookId: EXAMPLE.webhookId,
        deliveryId: EXAMPLE.deliveryId,
        attemptNumber: 1,
        timestamp: EXAMPLE.later,
        eventType: EXAMPLE.eventName,
        httpStatus: 200,
        responseTimeMs: 84,
        success: true,
        error: null,
        responseExcerpt: '{"ok":true}',
        deliveryStatus: "Succeeded",
        retryable: false,
      },
    ],
  });

export const retryResultSchema = z
  .object({
    deliveryId: z.guid(),
    webhookId: z.guid(),
    status: z.literal("Pending"),
    nextAttemptAt: z.iso.datetime(),
  })
  .meta({ id: "DeliveryRetryDto", examples: [{ deliveryId: EXAMPLE.deliveryId, webhookId: EXAMPLE.webhookId, status: "Pending", nextAttemptAt: EXAMPLE.later }] });

export const webhookSecretRotatedSchema = z
  .object({
    secret: z.string().describe("The new secret (`whsec_`), returned only in this response."),
    warning: z.string(),
    secretHint: z.string(),
    previousSecretExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe("Until when deliveries also carry a signature made with the previous secret; null when it stopped at once."),
  })
  .meta({
    id: "WebhookSecretRotatedDto",
    examples: [
      { secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9xQe", warning: "Store this secret now: it is shown only once.", secretHint: "****9xQe", previousSecretExpiresAt: EXAMPLE.later },
    ],
  });

export const webhookPathInput = {
  ...projectIdInput,
  webhookId: idInput().describe("The webhook's `id`.").meta({ examples: [EXAMPLE.webhookId] }),
};

export const campaignIdInput = idInput().describe("The campaign uniqueId (`campaignId` of the project).").meta({ examples: [EXAMPLE.campaignId] });
export const logIdInput = { logId: idInput().describe("The delivery log entry's `id`.").meta({ examples: [EXAMPLE.logId] }) };

export const createWebhookInput = withPath(createWebhookBody, { ...projectIdInput, campaignId: campaignIdInput });
export const updateWebhookInput = withPath(updateWebhookBody, webhookPathInput);
export const rotateWebhookSecretInput = withPath(rotateBody, webhookPathInput);
export const listLogsInput = deliveryLogQuery.extend(webhookPathInput);
