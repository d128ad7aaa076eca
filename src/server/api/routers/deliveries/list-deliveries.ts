import { protectedProcedure } from "@/server/api/trpc/procedures";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { DELIVERY_COUNT_MAX } from "@/lib/schemas/deliveries";
import { searchDeliveries } from "@/server/domain/deliveries/search-deliveries";
import { deliveryPageSchema, listDeliveriesInput } from "./delivery.types";

export const listDeliveriesProcedure = protectedProcedure
  .meta({
    permission: "webhooks.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/deliveries",
      tags: ["Deliveries"],
      summary: "Search the project's deliveries",
      description:
        "Every delivery of every webhook of the project, newest first, filtered by any of `search` (a delivery id, a tracking id, or the referrer's or referee's client id, matched exactly), " +
        `\`status\`, \`webhookId\`, \`event\` and the creation time (\`from\` inclusive, \`to\` exclusive), all together. \`pageSize\` is 1 to ${MAX_PAGE_SIZE}. ` +
        `The matches are counted up to ${DELIVERY_COUNT_MAX.toLocaleString("en-GB")}: when more match, \`totalCount\` is ${DELIVERY_COUNT_MAX.toLocaleString("en-GB")} and \`totalCountExact\` false ` +
        "(page on while `hasNextPage`, which is always exact, or narrow the filter). " +
        "A `from` that is not before `to`, an unknown status or an out-of-range page is a 400 naming the field; a `webhookId` of no webhook of the project is a 404.",
    },
  })
  .input(listDeliveriesInput)
  .output(deliveryPageSchema)
  .query(({ ctx, input: { projectId, ...search } }) => searchDeliveries(ctx.db, ctx.organizationId, projectId, search));
