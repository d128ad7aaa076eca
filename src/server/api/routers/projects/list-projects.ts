import { z } from "zod";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listProjects } from "@/server/domain/projects/list-projects";
import { projectDtoSchema } from "./project.types";

export const listProjectsProcedure = protectedProcedure
  .meta({ permission: "projects.read", openapi: { method: "GET", path: "/public/projects", tags: ["Projects"], summary: "List the organisation's projects", description: "Every project of the API key's organisation, oldest first." } })
  .input(z.void())
  .output(z.array(projectDtoSchema))
  .query(({ ctx }) => listProjects(ctx.db, ctx.organizationId));
