import type { Db } from "@/server/db/client";
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
/** How long this process keeps the set of origins any project allows before reading it again. */
export const PREFLIGHT_ORIGINS_TTL_MS = 30_000;
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

type Cached = { origins: Promise<Set<string>>; expires: number };
let cache = new WeakMap<Db, Cached>();

/** Whether at least one project allows this origin; read at most every PREFLIGHT_ORIGINS_TTL_MS per process. */
export async function anyProjectAllows(db: Db, origin: string): Promise<boolean> {
  let entry = cache.get(db);
  if (!entry || entry.expires <= Date.now()) {
    entry = { origins: listAllowedOrigins(db).then((list) => new Set(list)), expires: Date.now() + PREFLIGHT_ORIGINS_TTL_MS };
    cache.set(db, entry);
    entry.origins.catch(() => cache.delete(db));
  }
  return (await entry.origins).has(origin);
}

/** A project's origins changed here: this process reads the set again at the next preflight (others within the TTL). */
export function forgetAllowedOrigins() {
  cache = new WeakMap();
}
