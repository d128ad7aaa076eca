import { memberProcedure } from "@/server/api/trpc";
import { listApiKeys } from "@/server/domain/api-keys/list-api-keys";

export const listApiKeysProcedure = memberProcedure.query(({ ctx }) => listApiKeys(ctx.db, ctx.organizationId));
