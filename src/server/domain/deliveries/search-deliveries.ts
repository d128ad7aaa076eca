import type { z } from "zod";
import type { deliveryListQuery } from "@/lib/schemas/deliveries";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { pageWindow, toPage, type PageEnvelope } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { DELIVERY_COLUMNS, DELIVERY_JOINS, toDeliveryDto, type DeliveryDto, type DeliveryRow } from "./delivery-dto";
import { deliveriesWhere } from "./select-deliveries";

export type DeliverySearch = z.output<typeof deliveryListQuery>;

/**
 * The project's deliveries the filter selects, across its webhooks, newest first. A page is chosen by
 * id first and only its rows are joined to their webhook, tracking item and users; the count reads
 * the same condition. Planned for its values each time (planned()): how selective a term or a status
 * is decides the plan.
 */
export async function searchDeliveries(db: Db, organizationId: string, projectId: string, search: DeliverySearch): Promise<PageEnvelope<DeliveryDto>> {
  await getOwnedProject(db, organizationId, projectId);
  const paging = pageWindow(search);
  const where = deliveriesWhere(projectId, search);
  const [rows, [counted]] = await Promise.all([
    planned<DeliveryRow>(db)`
      WITH page AS (
        SELECT d."id", d."createdAt" FROM "Delivery" d WHERE ${where}
        ORDER BY d."createdAt" DESC, d."id" DESC LIMIT ${paging.pageSize} OFFSET ${paging.skip}
      )
      SELECT ${DELIVERY_COLUMNS} FROM page JOIN "Delivery" d ON d."id" = page."id" ${DELIVERY_JOINS}
      ORDER BY page."createdAt" DESC, page."id" DESC`,
    planned<{ count: number }>(db)`SELECT count(*)::int AS "count" FROM "Delivery" d WHERE ${where}`,
  ]);
  const now = new Date();
  return toPage(rows.map((row) => toDeliveryDto(row, now)), paging, counted?.count ?? 0);
}
