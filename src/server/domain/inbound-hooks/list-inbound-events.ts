import type { z } from "zod";
import type { InboundEvent, Prisma } from "@/generated/prisma/client";
import type { InboundEventDto, inboundEventListQuery } from "@/lib/schemas/inbound-hooks";
import type { Db } from "@/server/db/client";
import { pageWindow, toPage, type PageEnvelope } from "@/server/domain/paging";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type InboundEventSearch = z.output<typeof inboundEventListQuery>;

/** The project's recorded inbound events the filter selects, newest first (events still being processed are not listed). */
export async function listInboundEvents(db: Db, organizationId: string, projectId: string, search: InboundEventSearch): Promise<PageEnvelope<InboundEventDto>> {
  await getOwnedProject(db, organizationId, projectId);
  const paging = pageWindow(search);
  const where: Prisma.InboundEventWhereInput = {
    projectId,
    outcome: search.outcome ?? { not: null },
    ...(search.provider ? { provider: search.provider } : {}),
    ...(search.environment ? { environment: search.environment } : {}),
    ...(search.type ? { type: search.type } : {}),
    ...(search.search ? { OR: [{ providerEventId: search.search }, { refereeId: search.search }] } : {}),
    ...(search.from || search.to ? { createdAt: { ...(search.from ? { gte: new Date(search.from) } : {}), ...(search.to ? { lt: new Date(search.to) } : {}) } } : {}),
  };
  const [rows, total] = await Promise.all([
    db.inboundEvent.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "desc" }], skip: paging.skip, take: paging.pageSize }),
    db.inboundEvent.count({ where }),
  ]);
  return toPage(rows.map(toInboundEventDto), paging, total);
}

export const toInboundEventDto = (row: InboundEvent): InboundEventDto => ({
  id: row.id,
  provider: row.provider,
  providerEventId: row.providerEventId,
  type: row.type,
  environment: row.environment,
  refereeId: row.refereeId,
  eventName: row.eventName,
  trackingId: row.trackingId,
  // Listed rows have an outcome (see the filter above).
  outcome: row.outcome!,
  reason: row.reason,
  createdAt: row.createdAt.toISOString(),
});
