import type { AuditEntryDto } from "@/lib/schemas/audit";

const COLUMNS = ["createdAt", "action", "actorType", "actorId", "actorLabel", "targetType", "targetId", "targetLabel", "details", "userAgent", "ipAddress"] as const;

/**
 * One CSV field (RFC 4180). A value a spreadsheet would run as a formula (=, +, -, @, tab, CR) gets a
 * leading apostrophe: labels are typed by users (key names, project names) and must not execute.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The entries as CSV with a header row, CRLF line ends; `details` as JSON text. */
export function auditCsv(entries: readonly AuditEntryDto[]): string {
  const lines = [COLUMNS.join(",")];
  for (const e of entries) {
    lines.push(
      COLUMNS.map((c) => {
        const value = c === "details" ? (e.details ? JSON.stringify(e.details) : "") : (e[c] ?? "");
        return csvField(value);
      }).join(","),
    );
  }
  return lines.join("\r\n") + "\r\n";
}
