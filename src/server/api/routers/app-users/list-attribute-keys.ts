import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listAttributeKeys } from "@/server/domain/app-users/list-attribute-keys";
import { attributeKeysInput, attributeKeysOutput } from "./app-user.types";

/** The keys the dashboard offers as attribute columns and filters (not REST: a convenience of the users page). */
export const listAttributeKeysProcedure = protectedProcedure
  .meta({ permission: "appUsers.read" })
  .input(attributeKeysInput)
  .output(attributeKeysOutput)
  .query(async ({ ctx, input }) => ({ keys: await listAttributeKeys(ctx.db, ctx.organizationId, input.projectId) }));
