import { z } from "zod";
import { idInput, projectIdInput } from "@/lib/schemas/common";
import { createWebhookBody, deliveryLogQuery, updateWebhookBody, WEBHOOK_ENVIRONMENTS } from "@/lib/schemas/webhooks";

const environment = z.enum(WEBHOOK_ENVIRONMENTS);

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

export const webhookPathInput = { ...projectIdInput, webhookId: idInput() };

export const createWebhookInput = createWebhookBody.extend({ ...projectIdInput, campaignId: idInput() });
export const updateWebhookInput = updateWebhookBody.extend(webhookPathInput);
export const listLogsInput = deliveryLogQuery.extend(webhookPathInput);
