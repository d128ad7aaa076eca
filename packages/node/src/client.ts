import createClient, { type Client, type ClientPathsWithMethod, type MaybeOptionalInit, type MethodResponse, type Middleware } from "openapi-fetch";
import { problemError } from "./errors.ts";
import { IDEMPOTENT_POSTS, type paths } from "./openapi.ts";
import { retryingFetch } from "./retry.ts";

export type ReferloopClientOptions = {
  /** An API key (`rl_...`, dashboard: API keys); its role decides what it may do. */
  apiKey: string;
  /** The Referloop app's origin, e.g. `https://referloop.example.com` (`/api/v1` is added). */
  baseUrl: string;
  /** Further attempts of a safe call or a keyed POST after a network error or a 408/429/5xx, default 2. */
  retries?: number;
  /** The first backoff between attempts (doubled each time, jittered; a Retry-After wins), default 500 ms. */
  retryBaseMs?: number;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch;
};

type Raw = Client<paths>;
type Verb = "get" | "put" | "post" | "delete";
/** The API's paths that answer `method`, e.g. `PathsWith<"get">`. */
export type PathsWith<M extends Verb> = ClientPathsWithMethod<Raw, M>;
type Init<P extends keyof paths, M extends Verb> = MaybeOptionalInit<paths[P], M & keyof paths[P]>;
/** The call's options (path, query and header parameters, body): optional when nothing in them is required. */
export type CallInit<P extends keyof paths, M extends Verb> = undefined extends Init<P, M> ? [init?: Init<P, M>] : [init: Init<P, M>];
/** What a successful call answers. */
export type Answer<M extends Verb, P extends PathsWith<M>> = MethodResponse<Raw, M, P>;
type Call<M extends Verb> = <P extends PathsWith<M>>(path: P, ...init: CallInit<P, M>) => Promise<Answer<M, P>>;

/** The GET paths that answer one page of a list (`items`, `hasNextPage`; `page` and `pageSize` in the query). */
export type PagedPath = { [P in PathsWith<"get">]: Answer<"get", P> extends { items: readonly unknown[]; hasNextPage: boolean } ? P : never }[PathsWith<"get">];
/** An item of a paged list. */
export type ItemOf<P extends PagedPath> = Answer<"get", P> extends { items: readonly (infer Item)[] } ? Item : never;

export type ReferloopClient = {
  GET: Call<"get">;
  POST: Call<"post">;
  PUT: Call<"put">;
  DELETE: Call<"delete">;
  /** Every item of a paged list, page after page (from the query's `page`, default 1), fetched as you iterate. */
  paginate<P extends PagedPath>(path: P, ...init: CallInit<P, "get">): AsyncGenerator<ItemOf<P>, void, undefined>;
  /** The openapi-fetch client underneath (answers `{ data, error, response }`, never throws a problem). */
  raw: Raw;
};

const idempotent = new Set(IDEMPOTENT_POSTS);
/** A POST the server dedupes gets a fresh Idempotency-Key unless the caller set one: the same on every retry of the call. */
const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (request.method === "POST" && idempotent.has(schemaPath) && !request.headers.has("Idempotency-Key")) request.headers.set("Idempotency-Key", crypto.randomUUID());
    return request;
  },
};

/** `/api/v1` of the app, however the origin was written. */
const apiBase = (baseUrl: string) => `${baseUrl.replace(/\/+$/, "").replace(/\/api\/v1$/, "")}/api/v1`;

/**
 * A typed client of the Referloop REST API: every path, parameter, body and answer comes from the
 * OpenAPI document (`openapi.ts`, generated). A call answers its data, or throws a ReferloopError.
 */
export function createReferloopClient(options: ReferloopClientOptions): ReferloopClient {
  if (!options?.apiKey) throw new TypeError("createReferloopClient needs apiKey");
  if (!options.baseUrl) throw new TypeError("createReferloopClient needs baseUrl, the Referloop app's origin");
  const raw = createClient<paths>({
    baseUrl: apiBase(options.baseUrl),
    headers: { Authorization: `Bearer ${options.apiKey}` },
    fetch: retryingFetch(options.fetch ?? globalThis.fetch, { retries: options.retries ?? 2, retryBaseMs: options.retryBaseMs ?? 500 }),
  });
  raw.use(idempotencyKeys);

  const call =
    <M extends Verb>(method: M): Call<M> =>
    async (path, ...init) => {
      const request = raw.request as (method: M, path: string, init?: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>;
      const { data, error, response } = await request(method, path, init[0]);
      if (!response.ok) throw problemError(error, response);
      return data as never;
    };
  const GET = call("get");

  return {
    GET,
    POST: call("post"),
    PUT: call("put"),
    DELETE: call("delete"),
    async *paginate(path, ...init) {
      const first = init[0] as { params?: { query?: { page?: number } } } | undefined;
      for (let page = first?.params?.query?.page ?? 1; ; page++) {
        const params = { ...first?.params, query: { ...first?.params?.query, page } };
        const answer = (await (GET as (path: string, init: unknown) => Promise<{ items: never[]; hasNextPage: boolean }>)(path, { ...first, params }));
        yield* answer.items;
        if (!answer.hasNextPage) return;
      }
    },
    raw,
  };
}
