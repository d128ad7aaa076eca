import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { emptyOutput } from "@/lib/schemas/common";
import { audited } from "@/server/domain/audit/audited";
import { deleteProject } from "@/server/domain/projects/delete-project";
import { projectIdOnlyInput } from "./project.types";

export const deleteProjectProcedure = protectedProcedure
  .meta({ permission: "projects.delete", changesCredentials: true,
    openapi: {
      method: "DELETE",
      path: "/public/projects/{projectId}",
      tags: ["Projects"],
      summary: "Delete a project and all its data",
      description: "Deletes the project with its campaign, app users, referrals, rewards, webhooks and delivery logs. Pending deliveries are not sent.",
      successDescription: "Deleted. The body is empty.",
    },
  })
  .input(projectIdOnlyInput)
  .output(emptyOutput)
  .mutation(async ({ ctx, input }) => {
    await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => deleteProject(tx, ctx.organizationId, input.projectId),
      (p) => ({ action: "project.delete", target: { type: "project", id: p.id, label: p.name } }),
    );
  });
