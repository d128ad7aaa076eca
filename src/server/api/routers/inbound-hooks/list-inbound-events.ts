import { protectedProcedure } from "@/server/api/trpc/procedures";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import { listInboundEvents } from "@/server/domain/inbound-hooks/list-inbound-events";
import { inboundEventPageSchema, listInboundEventsInput } from "./inbound-hooks.types";

export const listInboundEventsProcedure = protectedProcedure
  .meta({
    permission: "inboundHooks.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/inbound-events",
      tags: ["Inbound hooks"],
      summary: "List inbound events",
      description:
        "Every event Stripe and RevenueCat sent to the project's hooks that passed verification, once per provider event id, newest first, with its outcome: `rewarded`, `ignored` (with why) or `refused` (with the eligibility reason). " +
        `Filtered by any of \`provider\`, \`outcome\`, \`environment\`, \`type\`, \`search\` (the provider's event id or the referee's client id, exactly) and the time received (\`from\` inclusive, \`to\` exclusive). \`pageSize\` is 1 to ${MAX_PAGE_SIZE}.`,
    },
  })
  .input(listInboundEventsInput)
  .output(inboundEventPageSchema)
  .query(({ ctx, input: { projectId, ...search } }) => listInboundEvents(ctx.db, ctx.organizationId, projectId, search));
