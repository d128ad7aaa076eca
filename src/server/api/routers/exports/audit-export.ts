import type { AuditAction } from "@/lib/schemas/audit";
import { auditActor } from "@/server/api/trpc/audit-actor";
import type { Actor } from "@/server/api/trpc/procedures";
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import { recordAudit } from "@/server/domain/audit/record-audit";

type ExportContext = { db: Db; organizationId: string; actor: Actor; headers: Headers; config: Pick<Config, "trustedProxies"> };

/**
 * An export's audit entry: who took which file with which filter. Written once the export is known to
 * be allowed (its project owned), before the first row is read: a file started is data handed out.
 */
export function auditExport(ctx: ExportContext, action: AuditAction, projectId: string, filter: Record<string, unknown>) {
  const given = Object.fromEntries(Object.entries(filter).filter(([, value]) => value !== undefined));
  return recordAudit(ctx.db, ctx.organizationId, auditActor(ctx), { action, target: { type: "project", id: projectId }, details: { filter: given } });
}
