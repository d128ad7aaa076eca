import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { insertProject } from "@/server/domain/projects/create-project";
import { PROJECT_SECRET_WARNING, toProjectDto } from "@/server/domain/projects/to-project-dto";
import { createProjectInput, projectCreatedSchema } from "./project.types";

export const createProjectProcedure = protectedProcedure
  .meta({ permission: "projects.create", changesCredentials: true,
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
    const { project, secret } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => insertProject(tx, ctx.organizationId, input, ctx.config.urlRules),
      (r) => ({ action: "project.create", target: { type: "project", id: r.project.id, label: r.project.name } }),
    );
    return { ...toProjectDto(project), projectSecret: secret, warning: PROJECT_SECRET_WARNING };
  });
