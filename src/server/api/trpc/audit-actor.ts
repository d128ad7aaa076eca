import type { Config } from "@/server/config";
import type { AuditActor, RequestClient } from "@/server/domain/audit/record-audit";
import { requestClientIp } from "@/server/http/peer-address";
import type { Actor } from "./procedures";

/** Where the request came from: its user agent, and the client's address behind the trusted proxies. */
export function requestClient(ctx: { headers: Headers; config: Pick<Config, "trustedProxies"> }): RequestClient {
  return { userAgent: ctx.headers.get("user-agent"), ipAddress: requestClientIp(ctx.headers, ctx.config.trustedProxies) };
}

/** The caller as the audit log records it: a person by e-mail, a key by name, with where the request came from. */
export function auditActor(ctx: { actor: Actor; headers: Headers; config: Pick<Config, "trustedProxies"> }): AuditActor {
  const client = requestClient(ctx);
  return ctx.actor.kind === "user"
    ? { type: "user", id: ctx.actor.userId, label: ctx.actor.email, ...client }
    : { type: "apiKey", id: ctx.actor.apiKeyId, label: ctx.actor.name, ...client };
}
