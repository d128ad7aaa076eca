import { protectedProcedure } from "@/server/api/trpc/procedures";
import { inboundHooksSchema } from "@/lib/schemas/inbound-hooks";
import { loadInboundHook } from "@/server/domain/inbound-hooks/load-inbound-hook";
import { toInboundHooksDto } from "@/server/domain/inbound-hooks/to-inbound-hooks-dto";
import { publicOrigin } from "@/server/http/public-origin";
import { inboundHooksPathInput } from "./inbound-hooks.types";

export const getInboundHooksProcedure = protectedProcedure
  .meta({
    permission: "inboundHooks.read",
    secret: true,
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/inbound-hooks",
      tags: ["Inbound hooks"],
      summary: "Get the inbound hook settings",
      description:
        "The project's inbound hook token, the exact URLs to paste into Stripe and RevenueCat, whether each provider's secret is set (secrets are never returned) and the event-name mapping. The first call issues the token. See *Inbound conversions* above for the set-up.",
    },
  })
  .input(inboundHooksPathInput)
  .output(inboundHooksSchema)
  .query(async ({ ctx, input }) => {
    const { hook } = await loadInboundHook(ctx.db, ctx.organizationId, input.projectId);
    return toInboundHooksDto(hook, publicOrigin(ctx.config, ctx.headers));
  });
