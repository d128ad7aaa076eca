import { memberProcedure } from "@/server/api/trpc/procedures";
import { listApiKeys } from "@/server/domain/api-keys/list-api-keys";

export const listApiKeysProcedure = memberProcedure.meta({ permission: "apiKeys.read" }).query(({ ctx }) => listApiKeys(ctx.db, ctx.organizationId));
