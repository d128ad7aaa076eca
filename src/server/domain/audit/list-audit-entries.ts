import type { AuditEntry, Prisma } from "@/generated/prisma/client";
import type { AuditAction, AuditEntryDto, AuditFilter } from "@/lib/schemas/audit";
import type { Db } from "@/server/db/client";
import { normalizeIp } from "@/lib/ip-address";
import { pageWindow, toPage, type PageEnvelope, type PagingInput } from "@/server/domain/paging";

function where(organizationId: string, filter: AuditFilter): Prisma.AuditEntryWhereInput {
  return {
    organizationId,
    ...(filter.action ? { action: filter.action } : {}),
    ...(filter.actor ? { actorLabel: { contains: filter.actor, mode: "insensitive" } } : {}),
    // Stored addresses are normalised (client-ip.ts): "2001:DB8:0::1" and "::ffff:192.0.2.1" find theirs.
    ...(filter.ip ? { ipAddress: normalizeIp(filter.ip) ?? filter.ip } : {}),
    ...(filter.from || filter.to
      ? { createdAt: { ...(filter.from ? { gte: new Date(filter.from) } : {}), ...(filter.to ? { lt: new Date(filter.to) } : {}) } }
      : {}),
  };
}

const newestFirst: Prisma.AuditEntryOrderByWithRelationInput[] = [{ createdAt: "desc" }, { id: "desc" }];

export const toAuditEntryDto = (e: AuditEntry): AuditEntryDto => ({
  id: e.id,
  createdAt: e.createdAt.toISOString(),
  action: e.action as AuditAction,
  actorType: e.actorType as AuditEntryDto["actorType"],
  actorId: e.actorId,
  actorLabel: e.actorLabel,
  targetType: e.targetType,
  targetId: e.targetId,
  targetLabel: e.targetLabel,
  details: (e.details as Record<string, unknown> | null) ?? null,
  userAgent: e.userAgent,
  ipAddress: e.ipAddress,
});

/** The organisation's audit log, newest first, filtered, one page. */
export async function listAuditEntries(db: Db, organizationId: string, filter: AuditFilter, paging: PagingInput): Promise<PageEnvelope<AuditEntryDto>> {
  const window = pageWindow(paging);
  const [rows, total] = await db.$transaction([
    db.auditEntry.findMany({ where: where(organizationId, filter), orderBy: newestFirst, skip: window.skip, take: window.pageSize }),
    db.auditEntry.count({ where: where(organizationId, filter) }),
  ]);
  return toPage(rows.map(toAuditEntryDto), window, total);
}

/** Every matching entry up to `limit`, newest first, for an export; `truncated` when more matched. */
export async function exportAuditEntries(db: Db, organizationId: string, filter: AuditFilter, limit: number) {
  const rows = await db.auditEntry.findMany({ where: where(organizationId, filter), orderBy: newestFirst, take: limit + 1 });
  return { entries: rows.slice(0, limit).map(toAuditEntryDto), truncated: rows.length > limit };
}
