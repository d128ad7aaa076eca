import { z } from "zod";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getAppUser } from "@/server/domain/app-users/get-app-user";
import { appUserDtoSchema, appUserPathInput } from "./app-user.types";

export const getAppUserProcedure = protectedProcedure
  .meta({ permission: "appUsers.read", openapi: { method: "GET", path: "/public/projects/{projectId}/users/{uniqueId}", tags: ["App users"], summary: "Get an app user", description: "By the user's `uniqueId` (the service's id); see by-user-id for the client's own id." } })
  .input(z.object(appUserPathInput))
  .output(appUserDtoSchema)
  .query(({ ctx, input }) => getAppUser(ctx.db, ctx.organizationId, input.projectId, input.uniqueId));
