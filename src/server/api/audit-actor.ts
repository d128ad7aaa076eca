import type { AuditActor } from "@/server/domain/audit/record-audit";
import type { Actor } from "./trpc";

/** The caller as the audit log records it: a person by e-mail, a key by name, with the user agent. */
export function auditActor(ctx: { actor: Actor; headers: Headers }): AuditActor {
  const userAgent = ctx.headers.get("user-agent");
  return ctx.actor.kind === "user"
    ? { type: "user", id: ctx.actor.userId, label: ctx.actor.email, userAgent }
    : { type: "apiKey", id: ctx.actor.apiKeyId, label: ctx.actor.name, userAgent };
}
