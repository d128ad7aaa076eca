import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { fieldChanges } from "@/server/domain/audit/field-changes";
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
  .mutation(async ({ ctx, input: { projectId, ...changes } }) => {
    const { project } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => updateProject(tx, ctx.organizationId, projectId, changes, ctx.config.urlRules),
      ({ project: after, before }) => ({
        action: "project.update",
        target: { type: "project", id: after.uniqueId, label: after.name },
        details: { changes: fieldChanges(without(before), without(after)) },
      }),
    );
    return project;
  });

/** The project's fields a person sets: not its timestamps or keys (rotations have entries of their own). */
const without = <T extends { updatedAt?: unknown; projectSecretHint?: unknown; publishableKey?: unknown }>({ updatedAt: _u, projectSecretHint: _s, publishableKey: _p, ...rest }: T) => rest;
