import { Prisma } from "@/generated/prisma/client";
import type { DeliveryFilter } from "@/lib/schemas/deliveries";
import { trackingIdsNamedBy } from "@/server/domain/referrals/tracking-ids-named-by";

/**
 * The condition on `d` ("Delivery") of the deliveries a filter selects in a project: the one reading
 * of deliveryFilterSchema, for the search, the bulk retry and whatever else acts on "the deliveries
 * this filter selects". The search term is resolved in the same statement: a delivery id, or a
 * tracking id, or the client id of either party (through their tracking items); an index answers each.
 */
export function deliveriesWhere(projectId: string, filter: DeliveryFilter): Prisma.Sql {
  const conditions = [Prisma.sql`d."projectId" = ${projectId}`];
  if (filter.search) conditions.push(searchCondition(projectId, filter.search));
  if (filter.status) conditions.push(Prisma.sql`d."status" = ${filter.status}::"DeliveryStatus"`);
  if (filter.webhookId) conditions.push(Prisma.sql`d."webhookId" = ${filter.webhookId}`);
  if (filter.event) conditions.push(Prisma.sql`d."eventName" = ${filter.event}`);
  if (filter.from) conditions.push(Prisma.sql`d."createdAt" >= ${new Date(filter.from)}`);
  if (filter.to) conditions.push(Prisma.sql`d."createdAt" < ${new Date(filter.to)}`);
  return Prisma.join(conditions, " AND ");
}

/** The term as a delivery id, or as what names tracking items (trackingIdsNamedBy). */
function searchCondition(projectId: string, term: string): Prisma.Sql {
  return Prisma.sql`(d."id" = ${term} OR d."trackingId" = ANY(${trackingIdsNamedBy(projectId, term)}))`;
}
