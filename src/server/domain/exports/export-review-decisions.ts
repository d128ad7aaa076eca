import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { csvFile } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";
import { keysetCsv } from "./keyset-csv";

export const REVIEW_DECISION_EXPORT_COLUMNS = ["decidedAt", "trackingId", "decision", "note", "heldFor", "status", "failureReason", "decidedBy"] as const;

/**
 * The review queue's history of decisions, oldest first, with the reviewer's reason in words: what a
 * person decided on each held reward, and what came of it. `heldFor` is the reasons joined by spaces;
 * `decidedBy` is empty where a hold ended by itself.
 */
export async function exportReviewDecisions(db: Db, organizationId: string, projectId: string): Promise<CsvExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const body = keysetCsv(db, {
    columns: Prisma.sql`d."decidedAt", d."trackingId", d."decision", d."note", array_to_string(d."heldFor", ' '), d."status"::text, d."failureReason", d."actorLabel"`,
    from: Prisma.sql`"ReviewDecision" d WHERE d."projectId" = ${project.id}`,
    at: Prisma.sql`d."decidedAt"`,
    id: Prisma.sql`d."id"`,
  });
  return { filename: exportFilename(project.name, "review-decisions"), chunks: csvFile(REVIEW_DECISION_EXPORT_COLUMNS, body) };
}
