import { forgetAllowedOrigins } from "@/server/api/rest/sdk-cors";
import { protectedProcedure } from "@/server/api/trpc";
import { createProject } from "@/server/domain/projects/create-project";
import { PROJECT_SECRET_WARNING, toProjectDto } from "@/server/domain/projects/to-project-dto";
import { createProjectInput, projectCreatedSchema } from "./project.types";

export const createProjectProcedure = protectedProcedure
  .meta({
    secret: true,
    status: 201,
    openapi: {
      method: "POST",
      path: "/public/projects",
      tags: ["Projects"],
      summary: "Create a project",
      description: "Creates the project and its campaign. The response carries the `sk_` project secret once.",
    },
  })
  .input(createProjectInput)
  .output(projectCreatedSchema)
  .mutation(async ({ ctx, input }) => {
    const { project, secret } = await createProject(ctx.db, ctx.organizationId, input, ctx.config.urlRules);
    if (input.allowedOrigins?.length) forgetAllowedOrigins();
    return { ...toProjectDto(project), projectSecret: secret, warning: PROJECT_SECRET_WARNING };
  });
