import { AUDIT_EXPORT_MAX_ENTRIES, exportAuditEntriesInput } from "@/lib/schemas/audit";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { auditCsv } from "@/server/domain/audit/audit-csv";
import { exportAuditEntries } from "@/server/domain/audit/list-audit-entries";

/**
 * The filtered log as a file (CSV or JSON), newest first, at most AUDIT_EXPORT_MAX_ENTRIES entries
 * (`truncated` says more matched: narrow the dates). Served as a download by /api/audit-log/export.
 */
export const exportAuditEntriesProcedure = memberProcedure
  .meta({ permission: "audit.read" })
  .input(exportAuditEntriesInput)
  .query(async ({ ctx, input: { format, ...filter } }) => {
    const { entries, truncated } = await exportAuditEntries(ctx.db, ctx.organizationId, filter, AUDIT_EXPORT_MAX_ENTRIES);
    // After reading: the export does not list its own entry.
    await recordAudit(ctx.db, ctx.organizationId, auditActor(ctx), { action: "audit_log.export", details: { format, filter, entries: entries.length } });
    const stamp = new Date().toISOString().slice(0, 19).replace(/:/g, "-");
    return format === "csv"
      ? { filename: `audit-log-${stamp}.csv`, contentType: "text/csv; charset=utf-8", body: auditCsv(entries), truncated }
      : { filename: `audit-log-${stamp}.json`, contentType: "application/json; charset=utf-8", body: JSON.stringify({ entries, truncated }, null, 2), truncated };
  });
