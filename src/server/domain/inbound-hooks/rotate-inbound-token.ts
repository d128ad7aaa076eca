import type { Prisma } from "@/generated/prisma/client";
import { inboundTokenColumns, newInboundToken } from "./inbound-token";
import { loadInboundHook } from "./load-inbound-hook";

/** A new token; the old one finds nothing from the commit on (the hooks read the row on every call). */
export async function rotateInboundToken(db: Prisma.TransactionClient, organizationId: string, projectId: string) {
  const { project } = await loadInboundHook(db, organizationId, projectId);
  const hook = await db.inboundHook.update({ where: { projectId }, data: inboundTokenColumns(newInboundToken()) });
  return { project, hook };
}
