import type { Prisma } from "@/generated/prisma/client";
import type { AuditAction } from "@/lib/schemas/audit";

/**
 * Where a request came from, as sessions and the audit log keep it: its User-Agent, and the client's
 * IP address as requestClientIp reads it (src/server/http/peer-address.ts: the peer, or behind trusted
 * proxies the first untrusted X-Forwarded-For hop). Null when the request did not say or is unknown.
 */
export type RequestClient = { userAgent: string | null; ipAddress: string | null };

/** Who acted, as the entry keeps it: ids for filtering, a label copied at the time for reading, and where from. */
/** `service`: the service acting by itself (a webhook's recovery), with no request behind it. */
export type AuditActor = { type: "user" | "apiKey" | "service"; id: string; label: string } & Partial<RequestClient>;

export type AuditTarget = { type: string; id: string; label?: string | null };

export type AuditEvent = { action: AuditAction; target?: AuditTarget; details?: Record<string, unknown> };

const USER_AGENT_MAX_LENGTH = 500;

function columns(actor: AuditActor, event: AuditEvent) {
  return {
    action: event.action,
    actorType: actor.type,
    actorId: actor.id,
    actorLabel: actor.label,
    targetType: event.target?.type ?? null,
    targetId: event.target?.id ?? null,
    targetLabel: event.target?.label ?? null,
    details: (event.details ?? undefined) as Prisma.InputJsonValue | undefined,
    userAgent: actor.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null,
    ipAddress: actor.ipAddress ?? null,
  };
}

/** One entry in the organisation's log, inside the caller's transaction (the action's own). */
export async function recordAudit(tx: Prisma.TransactionClient, organizationId: string, actor: AuditActor, event: AuditEvent): Promise<void> {
  await tx.auditEntry.create({ data: { organizationId, ...columns(actor, event) } });
}

/**
 * An account event (sign-in, password change...): one entry in each organisation the account belongs
 * to now, in one statement. An account in no organisation leaves no entry: no owner could read it.
 */
export async function recordAccountEvent(tx: Prisma.TransactionClient, userId: string, actor: AuditActor, event: AuditEvent): Promise<void> {
  const c = columns(actor, event);
  await tx.$executeRaw`
    INSERT INTO "AuditEntry" ("id", "organizationId", "createdAt", "action", "actorType", "actorId", "actorLabel",
                              "targetType", "targetId", "targetLabel", "details", "userAgent", "ipAddress")
    SELECT gen_random_uuid()::text, m."organizationId", ${new Date()}, ${c.action}, ${c.actorType}, ${c.actorId}, ${c.actorLabel},
           ${c.targetType}, ${c.targetId}, ${c.targetLabel}, ${c.details === undefined ? null : JSON.stringify(c.details)}::jsonb, ${c.userAgent},
           ${c.ipAddress}
    FROM "Membership" m WHERE m."userId" = ${userId}`;
}
