import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { rotateProjectSecret } from "@/server/domain/projects/rotate-project-secret";
import { projectSecretRotatedSchema, rotateProjectSecretInput } from "./project.types";

export const rotateProjectSecretProcedure = protectedProcedure
  .meta({ permission: "projects.rotateSecret", changesCredentials: true,
    secret: true,
    optionalBody: true,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/rotate-secret",
      tags: ["Projects"],
      summary: "Rotate the project secret",
      description:
        "Issues a new `sk_` secret, shown once. Without a body (or with `overlapHours` 0) the previous secret stops working immediately; " +
        "with `overlapHours` 1 or 24 it keeps authenticating (and signing `userHash`) until `previousSecretExpiresAt`, so backends can switch without downtime.",
    },
  })
  .input(rotateProjectSecretInput)
  .output(projectSecretRotatedSchema)
  .mutation(async ({ ctx, input }) => {
    const { projectSecret, warning, previousSecretExpiresAt } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => rotateProjectSecret(tx, ctx.organizationId, input.projectId, input.overlapHours),
      (r) => ({
        action: "project.rotate_secret",
        target: { type: "project", id: r.project.id, label: r.project.name },
        details: { overlapHours: input.overlapHours ?? 0, previousSecretExpiresAt: r.previousSecretExpiresAt },
      }),
    );
    return { projectSecret, warning, previousSecretExpiresAt };
  });
