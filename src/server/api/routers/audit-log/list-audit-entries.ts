import { listAuditEntriesInput } from "@/lib/schemas/audit";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { listAuditEntries } from "@/server/domain/audit/list-audit-entries";

/** The organisation's audit log, newest first, filtered by action, actor and time, in the shared page envelope. */
export const listAuditEntriesProcedure = memberProcedure
  .meta({ permission: "audit.read" })
  .input(listAuditEntriesInput)
  .query(({ ctx, input: { page, pageSize, ...filter } }) => listAuditEntries(ctx.db, ctx.organizationId, filter, { page, pageSize }));
