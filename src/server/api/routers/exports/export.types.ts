import { z } from "zod";
import { checkAttributeFilter } from "@/lib/schemas/app-users";
import { projectIdInput } from "@/lib/schemas/common";
import { appUsersExportQuery, deliveriesExportQuery, referralsExportQuery } from "@/lib/schemas/exports";

export const appUsersExportInput = appUsersExportQuery.safeExtend(projectIdInput).superRefine(checkAttributeFilter);
export const referralsExportInput = referralsExportQuery.safeExtend(projectIdInput);
export const deliveriesExportInput = deliveriesExportQuery.safeExtend(projectIdInput);
/** An export without a filter: the project alone. */
export const projectExportInput = z.object(projectIdInput);

/**
 * A CsvExport (its name and its chunks, produced as they are sent): REST streams it as `text/csv`
 * (Meta.download), and the document describes that answer, not this schema.
 */
export const csvExportOutput = z.any();

export const EXPORT_ERRORS = [{ status: 429, description: "Too many exports for the organisation this hour (RATE_LIMIT_EXPORTS_PER_HOUR)." }];

export const CSV_RULES =
  "CSV (RFC 4180): a header row, CRLF line ends, fields with commas, quotes or line breaks quoted; a text starting with `=`, `+`, `-`, `@`, a tab or CR " +
  "gets a leading `'` so that no spreadsheet runs it as a formula. Times are ISO 8601 UTC. Streamed as it is read, so the size has no limit; " +
  "exports count against the organisation's RATE_LIMIT_EXPORTS_PER_HOUR.";
