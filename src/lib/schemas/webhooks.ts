import { z } from "zod";
import { WebhookEnvironment } from "@/generated/prisma/enums";
import { caseInsensitive, httpUrl, jsonBoolean, requiredText } from "./common";

export const WEBHOOK_ENVIRONMENTS = Object.values(WebhookEnvironment) as [WebhookEnvironment, ...WebhookEnvironment[]];
export const WEBHOOK_NAME_MAX_LENGTH = 200;
export const WEBHOOK_SECRET_MAX_LENGTH = 512;
/** The delivery log's `limit`: 1 to 500, default 100 (spec: Limits). */
export const DEFAULT_LOG_LIMIT = 100;
export const MAX_LOG_LIMIT = 500;

/**
 * The secret travels as `Authorization: Bearer <secret>`, so it must be a valid header value that
 * survives intact: visible ASCII only (no spaces, which proxies may trim or fold).
 */
export const webhookSecretSchema = z
  .string()
  .min(1, { error: "is required", abort: true })
  .max(WEBHOOK_SECRET_MAX_LENGTH)
  .regex(/^[\x21-\x7e]+$/, { error: "may contain visible ASCII characters only (no spaces)" });

/** The fields of a webhook a client writes; the server adds the production-mode address rules. */
export const webhookFields = {
  name: requiredText(WEBHOOK_NAME_MAX_LENGTH),
  url: httpUrl(),
  secret: webhookSecretSchema,
  enabled: jsonBoolean(),
  environment: caseInsensitive(WEBHOOK_ENVIRONMENTS),
};

const described = {
  name: webhookFields.name.describe("A label for people."),
  url: webhookFields.url.describe("https in production; private, loopback and metadata addresses are refused there."),
  secret: webhookFields.secret.describe("Sent as `Authorization: Bearer <secret>` and used to sign each delivery."),
  enabled: webhookFields.enabled.describe("A disabled webhook receives nothing."),
  environment: webhookFields.environment.describe("Sandbox, Production or Both (any case): which reward calls reach this webhook."),
};

/*
 * Request bodies and queries (without the path's ids): see app-users.ts.
 */
export const createWebhookBody = z.object({
  ...described,
  enabled: described.enabled.default(true),
  environment: described.environment.default("Both"),
});

export const updateWebhookBody = z.object(described).partial();

export const deliveryLogQuery = z.object({
  limit: z.number().int().min(1).max(MAX_LOG_LIMIT).default(DEFAULT_LOG_LIMIT).describe(`1 to ${MAX_LOG_LIMIT}.`),
});
