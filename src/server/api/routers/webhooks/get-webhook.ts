import { z } from "zod";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getWebhook } from "@/server/domain/webhooks/get-webhook";
import { webhookDtoSchema, webhookPathInput } from "./webhook.types";

export const getWebhookProcedure = protectedProcedure
  .meta({ permission: "webhooks.read", openapi: { method: "GET", path: "/public/projects/{projectId}/webhooks/{webhookId}", tags: ["Webhooks"], summary: "Get a webhook", description: "The webhook with its secret masked." } })
  .input(z.object(webhookPathInput))
  .output(webhookDtoSchema)
  .query(({ ctx, input }) => getWebhook(ctx.db, ctx.organizationId, input.projectId, input.webhookId));
