import { Prisma, type AppType } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import type { CredentialCache } from "@/server/db/credential-cache";
import { hashToken } from "@/server/domain/tokens";
import { PUBLISHABLE_PREFIX, SECRET_PREFIX } from "./project-keys";
import { prepared } from "@/server/db/prepared-statements";

/** What a client-library call knows of its project once the key is accepted. */
export type SdkProject = {
  id: string;
  organizationId: string;
  name: string;
  appType: AppType;
  referralRedirectLink: string | null;
  allowedOrigins: string[];
  identityVerification: boolean;
  secretEncrypted: string | null;
  /** The secret before a rotation with an overlap, while the overlap lasts (identity verification accepts its HMAC too). */
  previousSecretEncrypted: string | null;
};

type Row = SdkProject & { previousSecretExpiresAt: Date | null; byPreviousSecret: boolean };

/** `secret`: the `sk_` secret (backends); `publishable`: the `pk_` key (web pages, apps). */
export type ProjectKeyKind = "secret" | "publishable";

/** Longer than any key the service issues: refused before hashing or querying. */
const MAX_KEY_LENGTH = 100;

/**
 * The project a client-library key belongs to, with the kind of key, or null. One read by a unique
 * index, hand-written like API-key authentication (Prisma's per-query CPU was a measurable share of a
 * call), or none while `credentials` holds the key: a rotated key or a changed project is dropped
 * from every instance's cache when the change commits. The secret before a rotation with an overlap
 * authenticates too until the overlap ends, checked on every call (the cache may hold it longer).
 */
export async function authenticateProjectKey(
  db: Db,
  key: string,
  credentials: CredentialCache,
  now = new Date(),
): Promise<{ project: SdkProject; kind: ProjectKeyKind } | null> {
  if (key.length > MAX_KEY_LENGTH) return null;
  const kind: ProjectKeyKind | null = key.startsWith(SECRET_PREFIX) ? "secret" : key.startsWith(PUBLISHABLE_PREFIX) ? "publishable" : null;
  if (!kind) return null;
  // A secret is compared, and cached, as its hash only.
  const value = kind === "secret" ? hashToken(key) : key;
  const where =
    kind === "secret" ? Prisma.sql`("secretHash" = ${value} OR "previousSecretHash" = ${value})` : Prisma.sql`"publishableKey" = ${value}`;
  const row = await credentials.read(`project:${kind}:${value}`, async () => {
    const [found] = await prepared<Row>(db)`
      SELECT "id", "organizationId", "name", "appType"::text AS "appType", "referralRedirectLink", "allowedOrigins",
        "identityVerification", "secretEncrypted", "previousSecretEncrypted", "previousSecretExpiresAt",
        "previousSecretHash" IS NOT DISTINCT FROM ${value} AS "byPreviousSecret"
      FROM "Project" WHERE ${where}`;
    return found ?? null;
  });
  if (!row) return null;
  const { previousSecretExpiresAt, byPreviousSecret, ...project } = row;
  const overlapping = previousSecretExpiresAt !== null && previousSecretExpiresAt > now;
  if (byPreviousSecret && !overlapping) return null;
  return { project: { ...project, previousSecretEncrypted: overlapping ? project.previousSecretEncrypted : null }, kind };
}
