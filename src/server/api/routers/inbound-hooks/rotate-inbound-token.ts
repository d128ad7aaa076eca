import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { inboundHooksSchema } from "@/lib/schemas/inbound-hooks";
import { audited } from "@/server/domain/audit/audited";
import { rotateInboundToken } from "@/server/domain/inbound-hooks/rotate-inbound-token";
import { toInboundHooksDto } from "@/server/domain/inbound-hooks/to-inbound-hooks-dto";
import { publicOrigin } from "@/server/http/public-origin";
import { inboundHooksPathInput } from "./inbound-hooks.types";

export const rotateInboundTokenProcedure = protectedProcedure
  .meta({
    permission: "inboundHooks.rotateToken",
    secret: true,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/inbound-hooks/rotate-token",
      tags: ["Inbound hooks"],
      summary: "Rotate the inbound hook token",
      description:
        "Issues a new token: both hook URLs change, and the old ones answer 404 at once. Paste the new URLs into Stripe and RevenueCat. The provider secrets and the mapping are kept. Answers like the GET.",
    },
  })
  .input(inboundHooksPathInput)
  .output(inboundHooksSchema)
  .mutation(async ({ ctx, input }) => {
    const { hook } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => rotateInboundToken(tx, ctx.organizationId, input.projectId),
      (r) => ({ action: "inbound_hooks.rotate_token", target: { type: "project", id: r.project.id, label: r.project.name } }),
    );
    return toInboundHooksDto(hook, publicOrigin(ctx.config, ctx.headers));
  });
