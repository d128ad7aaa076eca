import { Prisma, type TrackingStatus } from "@/generated/prisma/client";
import type { ReferralSearch } from "@/lib/schemas/referrals";
import type { Db } from "@/server/db/client";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { referralsWhere, statusCondition } from "@/server/domain/referrals/select-referrals";
import { csvFile } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";
import { keysetCsv } from "./keyset-csv";

export const REFERRAL_EXPORT_COLUMNS = [
  "trackingId",
  "status",
  "referrerId",
  "refereeId",
  "referralCode",
  "rewardEventName",
  "failureReason",
  "rewardClaimed",
  "rewardClaimedAt",
  "createdAt",
] as const;

/**
 * The project's referral tracking items the referrals table's filter selects (search term, status,
 * creation time), by status (Pending, Completed, Failed, Revoked) then oldest first. Referrer and
 * referee by their client ids, empty once erased (the item is still exported, as the table still lists
 * it).
 *
 * Each status is a keyset of its own on (createdAt, id): Pending and Completed walk the (projectId,
 * createdAt) index, Failed and Revoked their partial ones (statusCondition). With one keyset on
 * (status, createdAt, id), PostgreSQL estimated the row comparison by its first column, so within the
 * last status it expected one row after the position, scanned and joined the status's whole remainder
 * for every batch, and sorted it (2.3 s a batch 100,000 rows before the end; 200,000 Failed items took
 * 47 s of 81).
 */
export async function exportReferrals(db: Db, organizationId: string, projectId: string, input: ReferralSearch): Promise<CsvExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const statuses: TrackingStatus[] = input.status ? [input.status] : ["Pending", "Completed", "Failed", "Revoked"];
  const where = referralsWhere(project.id, { ...input, status: undefined });
  const bodyOf = (status: TrackingStatus) =>
    keysetCsv(db, {
      // The columns in the file's order (REFERRAL_EXPORT_COLUMNS).
      columns: Prisma.sql`t."id", t."status"::text AS "status", r."clientProvidedId" AS "referrerId", e."clientProvidedId" AS "refereeId",
        t."referralCode", t."rewardEventName", t."failureReason", t."rewardClaimed", t."rewardClaimedAt", t."createdAt"`,
      from: Prisma.sql`"ReferralTracking" t LEFT JOIN "AppUser" r ON r."id" = t."referrerId" LEFT JOIN "AppUser" e ON e."id" = t."refereeId"
        WHERE ${where} AND ${statusCondition(status)}`,
      at: Prisma.sql`t."createdAt"`,
      id: Prisma.sql`t."id"`,
    });
  async function* body() {
    for (const status of statuses) yield* bodyOf(status);
  }
  return { filename: exportFilename(project.name, "referrals"), chunks: csvFile(REFERRAL_EXPORT_COLUMNS, body()) };
}
