import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { rotateProjectSecret } from "@/server/domain/projects/rotate-project-secret";
import { projectIdOnlyInput, projectSecretSchema } from "./project.types";

export const rotateProjectSecretProcedure = protectedProcedure
  .meta({ permission: "projects.rotateSecret", changesCredentials: true,
    secret: true,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/rotate-secret",
      tags: ["Projects"],
      summary: "Rotate the project secret",
      description: "Issues a new `sk_` secret, shown once; the previous secret stops working immediately.",
    },
  })
  .input(projectIdOnlyInput)
  .output(projectSecretSchema)
  .mutation(async ({ ctx, input }) => {
    const { projectSecret, warning } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => rotateProjectSecret(tx, ctx.organizationId, input.projectId),
      (r) => ({ action: "project.rotate_secret", target: { type: "project", id: r.project.id, label: r.project.name } }),
    );
    return { projectSecret, warning };
  });
