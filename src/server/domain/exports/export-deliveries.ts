import { Prisma } from "@/generated/prisma/client";
import type { DeliveryFilter } from "@/lib/schemas/deliveries";
import type { Db } from "@/server/db/client";
import { DELIVERY_JOINS } from "@/server/domain/deliveries/delivery-dto";
import { deliveriesWhere, getFilteredProject } from "@/server/domain/deliveries/select-deliveries";
import { csvFile } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";
import { keysetCsv } from "./keyset-csv";

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

/**
 * The project's deliveries the support console's filter selects (deliveriesWhere, the one reading of
 * it), oldest first, in keyset batches down the (projectId, createdAt) index, joined as the support
 * console joins them (DELIVERY_JOINS), so that a batch's end is found from the delivery index alone.
 */
export async function exportDeliveries(db: Db, organizationId: string, projectId: string, filter: DeliveryFilter): Promise<CsvExport> {
  const project = await getFilteredProject(db, organizationId, projectId, filter);
  const body = keysetCsv(db, {
    // The columns in the file's order (DELIVERY_EXPORT_COLUMNS).
    columns: Prisma.sql`d."id", d."webhookId", w."name" AS "webhookName", d."trackingId", r."clientProvidedId" AS "referrerId",
      e."clientProvidedId" AS "refereeId", d."eventName", d."status"::text AS "status", d."attemptCount", d."lastAttemptAt", d."lastHttpStatus",
      d."lastError", d."failure", d."createdAt"`,
    from: Prisma.sql`"Delivery" d ${DELIVERY_JOINS} WHERE ${deliveriesWhere(project.id, filter)}`,
    at: Prisma.sql`d."createdAt"`,
    id: Prisma.sql`d."id"`,
  });
  return { filename: exportFilename(project.name, "deliveries"), chunks: csvFile(DELIVERY_EXPORT_COLUMNS, body) };
}
