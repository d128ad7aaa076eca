import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { inboundHooksSchema } from "@/lib/schemas/inbound-hooks";
import { audited } from "@/server/domain/audit/audited";
import { fieldChanges } from "@/server/domain/audit/field-changes";
import { toInboundHooksDto } from "@/server/domain/inbound-hooks/to-inbound-hooks-dto";
import { updateInboundHooks } from "@/server/domain/inbound-hooks/update-inbound-hooks";
import { publicOrigin } from "@/server/http/public-origin";
import { updateInboundHooksInput } from "./inbound-hooks.types";

const secretChange = (field: string, value: string | null | undefined) =>
  value === undefined ? {} : { [field]: value === null ? { removed: true } : { changed: true } };

export const updateInboundHooksProcedure = protectedProcedure
  .meta({
    permission: "inboundHooks.write",
    secret: true,
    openapi: {
      method: "PUT",
      path: "/public/projects/{projectId}/inbound-hooks",
      tags: ["Inbound hooks"],
      summary: "Set provider secrets and event names",
      description:
        "Sets any of the Stripe signing secret, the RevenueCat Authorization value (both stored encrypted, never returned; `null` removes one, and that provider's hook then answers 404) and the event-name mapping (replaced whole). Fields not sent are kept. Answers like the GET.",
    },
  })
  .input(updateInboundHooksInput)
  .output(inboundHooksSchema)
  .mutation(async ({ ctx, input: { projectId, ...body } }) => {
    const { hook } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      async (tx) => {
        const before = await tx.inboundHook.findUnique({ where: { projectId }, select: { eventNames: true } });
        return { ...(await updateInboundHooks(tx, ctx.organizationId, projectId, body)), before };
      },
      (r) => ({
        action: "inbound_hooks.update",
        target: { type: "project", id: r.project.id, label: r.project.name },
        // Which settings changed; the secrets only as set or removed, never their values.
        details: {
          fields: Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined),
          changes: {
            ...secretChange("stripeSigningSecret", body.stripeSigningSecret),
            ...secretChange("revenueCatAuthorization", body.revenueCatAuthorization),
            ...(body.eventNames === undefined ? {} : fieldChanges({ eventNames: r.before?.eventNames ?? {} }, { eventNames: r.hook.eventNames })),
          },
        },
      }),
    );
    return toInboundHooksDto(hook, publicOrigin(ctx.config, ctx.headers));
  });
