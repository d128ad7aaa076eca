import { router } from "@/server/api/trpc/procedures";
import { exportAuditEntriesProcedure } from "./export-audit-entries";
import { listAuditEntriesProcedure } from "./list-audit-entries";

// Dashboard only (owners): the list, and the export behind /api/audit-log/export.
export const auditLogRouter = router({ list: listAuditEntriesProcedure, export: exportAuditEntriesProcedure });
