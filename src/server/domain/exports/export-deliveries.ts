import { Prisma } from "@/generated/prisma/client";
import type { DeliveryFilter } from "@/lib/schemas/deliveries";
import type { Db } from "@/server/db/client";
import { plannedArrays } from "@/server/db/prepared-statements";
import { deliveriesWhere } from "@/server/domain/deliveries/select-deliveries";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { csvChunks, type CsvValue } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";
import { keysetBatches } from "./keyset-batches";

export const DELIVERY_EXPORT_COLUMNS = [
  "deliveryId",
  "webhookId",
  "webhookName",
  "trackingId",
  "referrerId",
  "refereeId",
  "event",
  "status",
  "attempts",
  "lastAttemptAt",
  "lastHttpStatus",
  "lastError",
  "failure",
  "createdAt",
] as const;

const CREATED_AT = DELIVERY_EXPORT_COLUMNS.indexOf("createdAt");

/**
 * The project's deliveries the support console's filter selects (deliveriesWhere, the one reading of
 * it), oldest first, in keyset batches down the (projectId, createdAt) index.
 */
export async function exportDeliveries(db: Db, organizationId: string, projectId: string, filter: DeliveryFilter): Promise<CsvExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const where = deliveriesWhere(project.id, filter);
  // The columns in the file's order (DELIVERY_EXPORT_COLUMNS).
  const batches = keysetBatches(
    (after: { at: CsvValue; id: CsvValue } | null, limit) => plannedArrays<CsvValue[]>(db)`
      SELECT d."id", d."webhookId", w."name" AS "webhookName", d."trackingId", r."clientProvidedId" AS "referrerId", e."clientProvidedId" AS "refereeId",
        d."eventName", d."status"::text AS "status", d."attemptCount", d."lastAttemptAt", d."lastHttpStatus", d."lastError", d."failure", d."createdAt"
      FROM "Delivery" d
        JOIN "Webhook" w ON w."id" = d."webhookId"
        LEFT JOIN "ReferralTracking" t ON t."id" = d."trackingId"
        LEFT JOIN "AppUser" r ON r."id" = t."referrerId"
        LEFT JOIN "AppUser" e ON e."id" = t."refereeId"
      WHERE ${where} ${after ? Prisma.sql`AND (d."createdAt", d."id") > (${after.at}::timestamp, ${after.id})` : Prisma.empty}
      ORDER BY d."createdAt", d."id" LIMIT ${limit}`,
    (row) => ({ at: row[CREATED_AT], id: row[0] }),
  );
  return { filename: exportFilename(project.name, "deliveries"), chunks: csvChunks(DELIVERY_EXPORT_COLUMNS, batches) };
}
