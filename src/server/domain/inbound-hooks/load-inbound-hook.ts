import type { Prisma } from "@/generated/prisma/client";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { inboundTokenColumns, newInboundToken } from "./inbound-token";

/**
 * The project's hook settings, made with a fresh token on first read: a token exists for every project
 * that ever looked at its settings, without a token for each project ever created (a migration cannot
 * encrypt). Concurrent first reads make one row (the primary key), both read it back.
 */
export async function loadInboundHook(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  const project = await getOwnedProject(db, organizationId, projectId);
  const existing = await db.inboundHook.findUnique({ where: { projectId } });
  if (existing) return { project, hook: existing };
  await db.inboundHook.createMany({ data: [{ projectId, ...inboundTokenColumns(newInboundToken()) }], skipDuplicates: true });
  return { project, hook: await db.inboundHook.findUniqueOrThrow({ where: { projectId } }) };
}
