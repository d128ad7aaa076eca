import { protectedProcedure } from "@/server/api/trpc";
import { rotateProjectSecret } from "@/server/domain/projects/rotate-project-secret";
import { projectIdOnlyInput, projectSecretSchema } from "./project.types";

export const rotateProjectSecretProcedure = protectedProcedure
  .meta({
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
  .mutation(({ ctx, input }) => rotateProjectSecret(ctx.db, ctx.organizationId, input.projectId));
