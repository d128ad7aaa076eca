import { z } from "zod";
import { jsonBoolean } from "@/lib/json-zod";
import { caseInsensitive, projectIdInput } from "@/server/api/schemas";
import { DEFAULT_LOG_LIMIT, MAX_LOG_LIMIT } from "@/server/domain/webhooks/list-webhook-logs";
import { MAX_NAME_LENGTH, MAX_SECRET_LENGTH, WEBHOOK_ENVIRONMENTS } from "@/server/domain/webhooks/parse-webhook-input";
import { MIN_WEBHOOK_SECRET_LENGTH } from "@/server/domain/webhooks/standard-webhook-secret";

const environment = z.enum(WEBHOOK_ENVIRONMENTS);
const environmentInput = caseInsensitive(WEBHOOK_ENVIRONMENTS);

export const webhookDtoSchema = z
  .object({
    id: z.string(),
    projectId: z.string(),
    campaignId: z.string(),
    name: z.string(),
    url: z.string(),
    enabled: z.boolean(),
    environment: environment.describe("Sandbox, Production or Both: which reward calls reach this webhook."),
    secretHint: z.string().describe("The secret masked (`****abcd`); the secret itself is returned only on creation."),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "WebhookDto" });

export const webhookCreatedSchema = webhookDtoSchema
  .extend({ secret: z.string().describe("The secret, returned only in this response."), warning: z.string() })
  .meta({ id: "WebhookCreatedDto" });

export const deliveryLogSchema = z
  .object({
    id: z.string().describe("The log entry id: the `{logId}` of the retry call."),
    webhookId: z.string(),
    deliveryId: z.string().describe("Stable across attempts: sent as `X-Service-Delivery-Id` and `webhook-id`."),
    attemptNumber: z.number().int(),
    timestamp: z.string(),
    eventType: z.string().describe("The trigger event name."),
    httpStatus: z.number().int().nullable().describe("Null when no response came back."),
    responseTimeMs: z.number().int(),
    success: z.boolean(),
    error: z.string().nullable(),
    responseExcerpt: z.string().nullable().describe("The first KiB of the response body."),
    deliveryStatus: z.enum(["Pending", "Succeeded", "Failed"]).describe("Pending: a retry is scheduled; Failed: dead-lettered."),
    retryable: z.boolean().describe("True when the retry call accepts this entry."),
  })
  .meta({ id: "DeliveryLogDto" });

export const retryResultSchema = z
  .object({
    deliveryId: z.string(),
    webhookId: z.string(),
    status: z.literal("Pending"),
    nextAttemptAt: z.string(),
  })
  .meta({ id: "DeliveryRetryDto" });

const fields = {
  name: z.string().max(MAX_NAME_LENGTH),
  url: z.string().max(2048).describe("https in production; private, loopback and metadata addresses are refused there."),
  secret: z
    .string()
    .min(MIN_WEBHOOK_SECRET_LENGTH, { error: `must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters; omit it to get a generated one` })
    .max(MAX_SECRET_LENGTH)
    .describe(
      `Sent as \`Authorization: Bearer <secret>\` and used to sign each delivery. ${MIN_WEBHOOK_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} visible ASCII characters; a \`whsec_\` value must be a Standard Webhooks secret (base64 of 24 to 64 bytes).`,
    ),
  enabled: jsonBoolean().describe("Default true; a disabled webhook receives nothing."),
  environment: environmentInput.describe("Sandbox, Production or Both (any case). Default Both."),
};

export const webhookPathInput = { ...projectIdInput, webhookId: z.string().min(1).max(100) };

export const createWebhookInput = z.object({
  ...projectIdInput,
  campaignId: z.string().min(1).max(100),
  name: fields.name,
  url: fields.url,
  secret: fields.secret.optional().describe("Omit it to get a generated Standard Webhooks secret (`whsec_` + base64), returned in the response."),
  enabled: fields.enabled.optional(),
  environment: fields.environment.optional(),
});

export const updateWebhookInput = z.object({
  ...webhookPathInput,
  name: fields.name.optional(),
  url: fields.url.optional(),
  secret: fields.secret.optional(),
  enabled: fields.enabled.optional(),
  environment: fields.environment.optional(),
});

export const listLogsInput = z.object({
  ...webhookPathInput,
  limit: z.number().int().min(1).max(MAX_LOG_LIMIT).optional().describe(`1 to ${MAX_LOG_LIMIT}, default ${DEFAULT_LOG_LIMIT}.`),
});
