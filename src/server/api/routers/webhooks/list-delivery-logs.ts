import { z } from "zod";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listDeliveryLogs } from "@/server/domain/deliveries/list-delivery-logs";
import { deliveryLogSchema, listLogsInput } from "./webhook.types";

export const listDeliveryLogsProcedure = protectedProcedure
  .meta({ permission: "webhooks.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/webhooks/{webhookId}/logs",
      tags: ["Webhooks"],
      summary: "The webhook's delivery log, newest first",
      description: "One entry per delivery attempt. `limit` is 1 to 500 (default 100); 0 or 501 is a 400.",
    },
  })
  .input(listLogsInput)
  .output(z.array(deliveryLogSchema))
  .query(({ ctx, input: { projectId, webhookId, limit } }) => listDeliveryLogs(ctx.db, ctx.organizationId, projectId, webhookId, { limit }));
