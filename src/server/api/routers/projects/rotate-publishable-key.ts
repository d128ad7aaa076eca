import { protectedProcedure } from "@/server/api/trpc";
import { rotatePublishableKey } from "@/server/domain/projects/rotate-publishable-key";
import { projectDtoSchema, projectIdOnlyInput } from "./project.types";

export const rotatePublishableKeyProcedure = protectedProcedure
  .meta({
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
  .mutation(({ ctx, input }) => rotatePublishableKey(ctx.db, ctx.organizationId, input.projectId));
