import { auditActor } from "@/server/api/trpc/audit-actor";
import { TEST_EVENT_NAME } from "@/lib/schemas/deliveries";
import { deliveryDetailSchema } from "@/server/api/routers/deliveries/delivery.types";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { sendTestEvent } from "@/server/domain/deliveries/send-test-event";
import { attemptOptions } from "@/server/jobs/attempt-options";
import { z } from "zod";
import { webhookPathInput } from "./webhook.types";

export const sendTestEventProcedure = protectedProcedure
  .meta({
    permission: "webhooks.write",
    batch: false,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/webhooks/{webhookId}/test",
      tags: ["Webhooks"],
      summary: "Send a test event",
      description:
        `Sends the webhook, now, a signed delivery with the reward body's fields and \`event\` \`${TEST_EVENT_NAME}\`, with the header \`X-Service-Test: true\`; ` +
        "its parties are `referloop-test` and its `trackingId` the nil UUID. It grants nothing, touches no tracking item and is not retried; it is sent to a disabled webhook too. " +
        "One audit entry (`webhook.test`) records who sent it. Answers 200 with the delivery and its attempt (request as sent and response, or the network error) once the attempt is over, within its time budget; it is in the delivery log like any attempt.",
    },
  })
  .input(z.object(webhookPathInput))
  .output(deliveryDetailSchema)
  .mutation(({ ctx, input }) => sendTestEvent(ctx.db, ctx.organizationId, input.projectId, input.webhookId, auditActor(ctx), attemptOptions(ctx.config)));
