import { z } from "zod";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getWebhookHealthHistory } from "@/server/domain/webhooks/get-webhook-health-history";
import { webhookPathInput } from "./webhook.types";

export const MAX_HEALTH_DAYS = 90;

/** A webhook's attempts per day, for the dashboard's health chart (tRPC only: REST has the delivery logs). */
export const getWebhookHealthHistoryProcedure = protectedProcedure
  .meta({ permission: "webhooks.read" })
  .input(z.object({ ...webhookPathInput, days: z.number().int().min(1).max(MAX_HEALTH_DAYS).default(14) }))
  .query(({ ctx, input }) => getWebhookHealthHistory(ctx.db, ctx.organizationId, input.projectId, input.webhookId, input.days));
