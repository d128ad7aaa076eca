import { z } from "zod";
import { idInput, projectIdInput, withPath } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { createWebhookBody, deliveryLogQuery, updateWebhookBody, WEBHOOK_ENVIRONMENTS } from "@/lib/schemas/webhooks";

const environment = z.enum(WEBHOOK_ENVIRONMENTS);

const webhookExample = {
  id: EXAMPLE.webhookId,
  projectId: EXAMPLE.projectId,
  campaignId: EXAMPLE.campaignId,
  name: "Rewards to billing",
  url: EXAMPLE.webhookUrl,
  enabled: true,
  environment: "Production",
  secretHint: "****9xQe",
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
    secretHint: z.string().describe("The secret masked (`****abcd`); the secret itself is returned only on creation."),
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

export const webhookPathInput = {
  ...projectIdInput,
  webhookId: idInput().describe("The webhook's `id`.").meta({ examples: [EXAMPLE.webhookId] }),
};

export const campaignIdInput = idInput().describe("The campaign uniqueId (`campaignId` of the project).").meta({ examples: [EXAMPLE.campaignId] });
export const logIdInput = { logId: idInput().describe("The delivery log entry's `id`.").meta({ examples: [EXAMPLE.logId] }) };

export const createWebhookInput = withPath(createWebhookBody, { ...projectIdInput, campaignId: campaignIdInput });
export const updateWebhookInput = withPath(updateWebhookBody, webhookPathInput);
export const listLogsInput = deliveryLogQuery.extend(webhookPathInput);
