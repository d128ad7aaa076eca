import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getProject } from "@/server/domain/projects/get-project";
import { projectDtoSchema, projectIdOnlyInput } from "./project.types";

export const getProjectProcedure = protectedProcedure
  .meta({ permission: "projects.read", openapi: { method: "GET", path: "/public/projects/{projectId}", tags: ["Projects"], summary: "Get a project", description: "The project record; its secret is never shown again (only `projectSecretHint`)." } })
  .input(projectIdOnlyInput)
  .output(projectDtoSchema)
  .query(({ ctx, input }) => getProject(ctx.db, ctx.organizationId, input.projectId));
