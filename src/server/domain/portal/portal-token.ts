import { createHmac, hkdfSync, timingSafeEqual } from "node:crypto";

/*
 * A portal session is a self-contained signed token: `<payload>.<mac>`, the payload base64url JSON
 * naming the project, the app user and the expiry. The MAC key is derived (HKDF) from the instance's
 * encryption key with the project's current secret hash as salt, so:
 * - nobody without the instance key can mint one (a database dump alone is not enough);
 * - rotating the project secret changes the salt, and every session of the project stops verifying;
 * - a token of one project never verifies under another's key.
 * Nothing is stored per session; an erased user ends the session because the user is looked up.
 */

const INFO = "referloop portal session v1";
const MAC_BYTES = 32;

export type PortalClaims = { projectId: string; appUserId: string; expiresAt: Date };

/** The MAC key of a project's portal sessions. */
export const portalKey = (instanceKey: string, secretHash: string): Buffer => Buffer.from(hkdfSync("sha256", instanceKey, secretHash, INFO, 32));

const mac = (payload: string, key: Buffer) => createHmac("sha256", key).update(payload).digest();

export function issuePortalToken(claims: PortalClaims, key: Buffer): string {
  const payload = Buffer.from(JSON.stringify({ p: claims.projectId, u: claims.appUserId, e: Math.floor(claims.expiresAt.getTime() / 1000) })).toString("base64url");
  return `${payload}.${mac(payload, key).toString("base64url")}`;
}

const TOKEN = /^([A-Za-z0-9_-]{1,600})\.([A-Za-z0-9_-]{43})$/;

/** The claims a token states, unverified: which project's key to check it with. Null when malformed. */
export function peekPortalToken(token: string): (PortalClaims & { payload: string; signature: string }) | null {
  const match = TOKEN.exec(token);
  if (!match) return null;
  const [, payload, signature] = match as unknown as [string, string, string];
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, "base64url").toString("utf8"));
  } catch {
    return null;
  }
  const { p, u, e } = (claims ?? {}) as Record<string, unknown>;
  if (typeof p !== "string" || typeof u !== "string" || typeof e !== "number" || !Number.isSafeInteger(e)) return null;
  return { projectId: p, appUserId: u, expiresAt: new Date(e * 1000), payload, signature };
}

/** Whether the token's MAC is right under one of `keys` (the current instance key, and a previous one during a rotation). */
export function portalTokenSigned(peeked: { payload: string; signature: string }, keys: Buffer[]): boolean {
  const given = Buffer.from(peeked.signature, "base64url");
  return given.length === MAC_BYTES && keys.some((key) => timingSafeEqual(given, mac(peeked.payload, key)));
}
