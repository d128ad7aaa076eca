import type { AuditEntryDto } from "@/lib/schemas/audit";
import { csvLine } from "@/server/domain/exports/csv-chunks";

const COLUMNS = ["createdAt", "action", "actorType", "actorId", "actorLabel", "targetType", "targetId", "targetLabel", "details", "userAgent", "ipAddress"] as const;

/** The entries as CSV (csvLine: RFC 4180, formulas neutralised) with a header row, CRLF line ends; `details` as JSON text. */
export function auditCsv(entries: readonly AuditEntryDto[]): string {
  let text = csvLine(COLUMNS);
  for (const e of entries) text += csvLine(COLUMNS.map((c) => (c === "details" ? (e.details ? JSON.stringify(e.details) : "") : (e[c] ?? ""))));
  return text;
}
