import { protectedProcedure } from "@/server/api/trpc/procedures";
import { updateAppUser } from "@/server/domain/app-users/update-app-user";
import { appUserDtoSchema, updateAppUserInput } from "./app-user.types";

export const updateAppUserProcedure = protectedProcedure
  .meta({ permission: "appUsers.write",
    openapi: {
      method: "PUT",
      path: "/public/projects/{projectId}/users/{uniqueId}",
      tags: ["App users"],
      summary: "Replace an app user's attributes",
      description: "The attributes map replaces the stored one entirely; send `{}` to clear it.",
    },
  })
  .input(updateAppUserInput)
  .output(appUserDtoSchema)
  .mutation(({ ctx, input: { projectId, ...body } }) => updateAppUser(ctx.db, ctx.organizationId, projectId, body));
