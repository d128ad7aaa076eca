import type { Db } from "@/server/db/client";
import type { CredentialCache } from "@/server/db/credential-cache";
import { listAllowedOrigins } from "@/server/domain/projects/list-allowed-origins";
import { PROJECT_KEY_HEADER } from "@/lib/schemas/sdk";

/*
 * CORS for the client-library endpoints. A browser may call them only from an origin the project
 * allows; the procedure kind checks that against the project of the key (trpc/sdk-procedures.ts) and
 * sets the CORS headers among the answer's (the context's responseHeaders). A preflight carries no
 * key, so it cannot know the project: it is answered for origins that at least one project allows.
 */

/** How long a browser may cache a preflight answer (seconds). */
export const PREFLIGHT_MAX_AGE_S = 600;
export const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "POST",
  "access-control-allow-headers": `Content-Type, ${PROJECT_KEY_HEADER}`,
  "access-control-max-age": String(PREFLIGHT_MAX_AGE_S),
};

/** What a page on an allowed origin may read of an answer besides the body. */
export const SDK_EXPOSED_HEADERS = "Retry-After, RateLimit, RateLimit-Policy, X-Request-Id";

/**
 * Whether at least one project allows this origin. The set is kept in the credential cache, so a
 * project's new or removed origin reaches every instance as soon as it is saved.
 */
export async function anyProjectAllows(db: Db, credentials: CredentialCache, origin: string): Promise<boolean> {
  const origins = await credentials.read("allowedOrigins", async () => new Set(await listAllowedOrigins(db)));
  return origins!.has(origin);
}
