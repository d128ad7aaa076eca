import type { Db } from "@/server/db/client";
import type { CredentialCache } from "@/server/db/credential-cache";
import { listAllowedOrigins } from "@/server/domain/projects/list-allowed-origins";
import { PROJECT_KEY_HEADER } from "@/lib/schemas/sdk";

/*
 * CORS for the client-library endpoints. A browser may call them only from an origin the project
 * allows; the procedure kind checks that against the project of the key (sdk-procedure.ts) and
 * records it here, and handleSdkRequest then answers with the CORS headers. A preflight carries no
 * key, so it cannot know the project: it is answered for origins that at least one project allows.
 */

/** How long a browser may cache a preflight answer (seconds). */
export const PREFLIGHT_MAX_AGE_S = 600;
export const PREFLIGHT_HEADERS = {
  "access-control-allow-methods": "POST",
  "access-control-allow-headers": `Content-Type, ${PROJECT_KEY_HEADER}`,
  "access-control-max-age": String(PREFLIGHT_MAX_AGE_S),
};

/**
 * Origins the procedure accepted, by the request's own headers object (the context's `headers` is
 * the request's), so the response of that request, and no other, gets them.
 */
const accepted = new WeakMap<Headers, string>();

export const acceptOrigin = (requestHeaders: Headers, origin: string) => void accepted.set(requestHeaders, origin);
export const acceptedOrigin = (requestHeaders: Headers) => accepted.get(requestHeaders);

/**
 * Whether at least one project allows this origin. The set is kept in the credential cache, so a
 * project's new or removed origin reaches every instance as soon as it is saved.
 */
export async function anyProjectAllows(db: Db, credentials: CredentialCache, origin: string): Promise<boolean> {
  const origins = await credentials.read("allowedOrigins", async () => new Set(await listAllowedOrigins(db)));
  return origins!.has(origin);
}
