import { Prisma } from "@/generated/prisma/client";
import type { DeliveryFilter } from "@/lib/schemas/deliveries";
import { notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { trackingIdsNamedBy } from "@/server/domain/referrals/tracking-ids-named-by";
import { shortIdTerm } from "@/lib/schemas/search";

/**
 * The project a filter is read in, if the organisation owns it, and the filter's webhook, if it names
 * one, in that project: an unknown or another organisation's webhook id is a 404 like any other id,
 * not a filter that silently selects nothing. One lookup more, by key, and only when a webhook is named.
 */
export async function getFilteredProject(db: Prisma.TransactionClient, organizationId: string, projectId: string, filter: Pick<DeliveryFilter, "webhookId">) {
  const project = await getOwnedProject(db, organizationId, projectId);
  if (filter.webhookId && !(await db.webhook.findFirst({ where: { id: filter.webhookId, projectId }, select: { id: true } }))) throw notFound("Webhook");
  return project;
}

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

/** The term as a delivery id or its short form (the first 8 characters the table shows), or as what names tracking items (trackingIdsNamedBy). */
function searchCondition(projectId: string, term: string): Prisma.Sql {
  const short = shortIdTerm(term);
  const byShortId = short ? Prisma.sql`OR left(d."id", 8) = ${short}` : Prisma.empty;
  return Prisma.sql`(d."id" = ${term} ${byShortId} OR d."trackingId" = ANY(${trackingIdsNamedBy(projectId, term)}))`;
}
