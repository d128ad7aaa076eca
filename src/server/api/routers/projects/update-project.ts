import { protectedProcedure } from "@/server/api/trpc/procedures";
import { updateProject } from "@/server/domain/projects/update-project";
import { projectDtoSchema, updateProjectInput } from "./project.types";

export const updateProjectProcedure = protectedProcedure
  .meta({ permission: "projects.update", changesCredentials: true,
    openapi: {
      method: "PUT",
      path: "/public/projects/{projectId}",
      tags: ["Projects"],
      summary: "Update a project",
      description: "Changes the fields present in the body; absent fields keep their value. `appType` cannot change.",
    },
  })
  .input(updateProjectInput)
  .output(projectDtoSchema)
  .mutation(({ ctx, input: { projectId, ...changes } }) => updateProject(ctx.db, ctx.organizationId, projectId, changes, ctx.config.urlRules));
