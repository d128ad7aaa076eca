import { z } from "zod";
import { projectIdInput } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listWebhooks } from "@/server/domain/webhooks/list-webhooks";
import { webhookDtoSchema } from "./webhook.types";

export const listWebhooksProcedure = protectedProcedure
  .meta({ permission: "webhooks.read", openapi: { method: "GET", path: "/public/projects/{projectId}/webhooks", tags: ["Webhooks"], summary: "List the project's webhooks", description: "Every webhook of the project's campaign; secrets are masked." } })
  .input(z.object(projectIdInput))
  .output(z.array(webhookDtoSchema))
  .query(({ ctx, input }) => listWebhooks(ctx.db, ctx.organizationId, input.projectId));
