import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getDelivery } from "@/server/domain/deliveries/get-delivery";
import { deliveryDetailSchema, deliveryPathInput } from "./delivery.types";

export const getDeliveryProcedure = protectedProcedure
  .meta({
    permission: "webhooks.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/deliveries/{deliveryId}",
      tags: ["Deliveries"],
      summary: "Get a delivery and every attempt",
      description:
        "The delivery, and each attempt first to last: the request as sent (URL, headers with the `Authorization` value redacted, the exact body) and the response " +
        "(status, duration, the first KiB of the body), or the network error. A Failed delivery's `failure` says whether it was dead-lettered or exhausted. " +
        "Bodies are null once purged at the end of their retention (`bodiesPurgedAt`). Another organisation's delivery is a 404, like an unknown one.",
    },
  })
  .input(deliveryPathInput)
  .output(deliveryDetailSchema)
  .query(({ ctx, input }) => getDelivery(ctx.db, ctx.organizationId, input.projectId, input.deliveryId));
