import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import { DomainError, notFound } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { prepared } from "@/server/db/prepared-statements";
import { instanceSecret } from "@/server/instance-secret";
import { issuePortalToken, peekPortalToken, portalKey, portalTokenSigned } from "./portal-token";

/** The path of the hosted page of a session; the token is its last segment. */
export const PORTAL_PREFIX = "/portal/";
export const portalUrl = (publicOrigin: string, token: string) => `${publicOrigin}${PORTAL_PREFIX}${token}`;

/** The instance keys a session may be signed with: the current, and during a key rotation the previous. */
const instanceKeys = (config: Config) => [
  instanceSecret("encryptionKey", config),
  ...(config.previousEncryptionKey ? [config.previousEncryptionKey] : []),
];

export type PortalSession = { token: string; url: string; expiresAt: string };

/**
 * Mints a read-only portal session for one app user of a project the organisation owns (another
 * organisation's project or user is "not found", like an absent one). Valid `expiresInSeconds`.
 */
export async function createPortalSession(
  db: Db,
  config: Config,
  organizationId: string,
  projectId: string,
  appUserId: string,
  options: { expiresInSeconds: number; publicOrigin: string; now?: Date },
): Promise<PortalSession> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.appUser.findFirst({ where: { id: appUserId, projectId: project.id }, select: { id: true } });
  if (!user) throw notFound("App user");
  const expiresAt = new Date((options.now ?? new Date()).getTime() + options.expiresInSeconds * 1000);
  expiresAt.setMilliseconds(0);
  const token = issuePortalToken({ projectId: project.id, appUserId: user.id, expiresAt }, portalKey(instanceKeys(config)[0]!, project.secretHash));
  return { token, url: portalUrl(options.publicOrigin, token), expiresAt: expiresAt.toISOString() };
}

/** What an open session gives: the project (for links and framing) and its one user. */
export type OpenPortal = {
  project: { id: string; appType: "Web" | "Mobile"; referralRedirectLink: string | null; allowedOrigins: string[] };
  appUserId: string;
  expiresAt: Date;
};

/** Why a token opens nothing: the page says "expired" for `expired`, "not valid" otherwise. */
export class PortalRefusal extends DomainError {
  constructor(readonly reason: "expired" | "invalid") {
    super("unauthorized", reason === "expired" ? "This portal session has expired: ask the app for a new one." : "This portal session is not valid.");
  }
}

/**
 * The project and user a session token is for, or a PortalRefusal: malformed, signed with another key
 * (tampered, another project's, or from before the project's secret was rotated), expired, or its user
 * no longer exists (erased). The expiry is checked after the signature, so "expired" is never said
 * of a forged token.
 */
export async function openPortalSession(db: Db, config: Config, token: string, now = new Date()): Promise<OpenPortal> {
  const peeked = peekPortalToken(token);
  if (!peeked) throw new PortalRefusal("invalid");
  const [row] = await prepared<OpenPortal["project"] & { secretHash: string; userId: string | null }>(db)`
    SELECT p."id", p."appType"::text AS "appType", p."referralRedirectLink", p."allowedOrigins", p."secretHash", u."id" AS "userId"
    FROM "Project" p LEFT JOIN "AppUser" u ON u."id" = ${peeked.appUserId} AND u."projectId" = p."id"
    WHERE p."id" = ${peeked.projectId}`;
  if (!row || !portalTokenSigned(peeked, instanceKeys(config).map((k) => portalKey(k, row.secretHash)))) throw new PortalRefusal("invalid");
  if (peeked.expiresAt.getTime() <= now.getTime()) throw new PortalRefusal("expired");
  if (!row.userId) throw new PortalRefusal("invalid");
  const { secretHash: _s, userId, ...project } = row;
  return { project, appUserId: userId, expiresAt: peeked.expiresAt };
}
