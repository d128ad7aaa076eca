import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { rotatePublishableKey } from "@/server/domain/projects/rotate-publishable-key";
import { projectDtoSchema, projectIdOnlyInput } from "./project.types";

export const rotatePublishableKeyProcedure = protectedProcedure
  .meta({
    permission: "projects.rotateSecret",
    changesCredentials: true,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/rotate-publishable-key",
      tags: ["Projects"],
      summary: "Rotate the publishable key",
      description: "Issues a new `pk_` key (in the returned project); the previous key stops working immediately, so update the widget's `data-key` and your apps first.",
    },
  })
  .input(projectIdOnlyInput)
  .output(projectDtoSchema)
  .mutation(({ ctx, input }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => rotatePublishableKey(tx, ctx.organizationId, input.projectId),
      (p) => ({ action: "project.rotate_publishable_key", target: { type: "project", id: p.uniqueId, label: p.name } }),
    ),
  );
