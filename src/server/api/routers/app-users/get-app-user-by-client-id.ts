import { z } from "zod";
import { projectIdInput } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getAppUserByClientId } from "@/server/domain/app-users/get-app-user-by-client-id";
import { clientProvidedIdSchema } from "@/lib/schemas/app-users";
import { EXAMPLE } from "@/lib/schemas/examples";
import { appUserDtoSchema } from "./app-user.types";

export const getAppUserByClientIdProcedure = protectedProcedure
  .meta({ permission: "appUsers.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/users/by-user-id/{clientProvidedId}",
      tags: ["App users"],
      summary: "Get an app user by the client's own id",
      description: "URL-encode the id (e.g. `user%2F42` for `user/42`).",
    },
  })
  .input(z.object({ ...projectIdInput, clientProvidedId: clientProvidedIdSchema.meta({ examples: [EXAMPLE.referrer.clientProvidedId] }) }))
  .output(appUserDtoSchema)
  .query(({ ctx, input }) => getAppUserByClientId(ctx.db, ctx.organizationId, input.projectId, input.clientProvidedId));
