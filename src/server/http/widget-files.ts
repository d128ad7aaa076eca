import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { HeaderMap } from "./header-map";
import { acceptsCoding } from "./accept-encoding";
import { answer, type ApiAnswer, type ApiRequest } from "./api-exchange";
import { logger } from "@/server/observability/logger";

/*
 * Serving the built widget (scripts/build-sdk.mjs writes dist/sdk/v1) at /sdk/v1/, straight from the
 * Node server (src/server/http/direct-routes.ts), never through a Next.js route: Next.js drops any
 * Content-Encoding a route handler sets (Next 16 send-response.js, FORBIDDEN_HEADERS) and gzips each
 * response again. Here every file is compressed once, with brotli and gzip at their best levels, when
 * the build is read. Entry files keep their names across releases and are cached briefly; every other
 * file is named by its content and cached forever. Each representation has its own strong ETag.
 */

// turbopackIgnore: a build output read at run time, not a build input.
export const SDK_DIR = path.resolve(/* turbopackIgnore: true */ process.cwd(), "dist/sdk/v1");

const ENTRIES = new Set(["referloop.js", "referloop.mjs"]);
const CACHE_ENTRY = "public, max-age=300, stale-while-revalidate=86400";
const CACHE_HASHED = "public, max-age=31536000, immutable";

type Coding = "br" | "gzip";
/** Preferred first; the ETag suffix names the representation. */
const CODINGS: { coding: Coding; suffix: string }[] = [
  { coding: "br", suffix: "-br" },
  { coding: "gzip", suffix: "-gz" },
];

export type Asset = { name: string; hash: string; body: Uint8Array<ArrayBuffer>; encoded: Record<Coding, Uint8Array<ArrayBuffer>> };

let loaded: { dir: string; stamp: number; assets: Map<string, Asset> } | undefined;
let warnedMissing = false;

/**
 * The files, read once. With `watch` (`next dev`, where build-sdk rebuilds on change) the manifest's
 * mtime is checked on every call and a new build is read; without it a loaded build is served with no
 * disk access at all, as a production process's files never change.
 */
export function loadAssets(dir = SDK_DIR, watch = false): Map<string, Asset> | undefined {
  if (!watch && loaded?.dir === dir) return loaded.assets;
  let stamp: number;
  try {
    stamp = statSync(path.join(dir, "manifest.json")).mtimeMs;
  } catch {
    if (!warnedMissing) logger().warn(`the widget is not built (${dir} is missing): run npm run build`);
    warnedMissing = true;
    return undefined;
  }
  if (loaded?.dir !== dir || loaded.stamp !== stamp) {
    const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Record<string, string>;
    const assets = new Map<string, Asset>();
    for (const [name, hash] of Object.entries(manifest)) {
      const body = new Uint8Array(readFileSync(path.join(dir, name)));
      const encoded = {
        br: new Uint8Array(brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } })),
        gzip: new Uint8Array(gzipSync(body, { level: constants.Z_BEST_COMPRESSION })),
      };
      assets.set(name, { name, hash, body, encoded });
    }
    loaded = { dir, stamp, assets };
  }
  return loaded.assets;
}

export type Answer = { status: number; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | string | null };

/** The HTTP answer for one file; 304 when If-None-Match names the representation this client gets. */
export function respond(asset: Asset | undefined, request: { acceptEncoding?: string; ifNoneMatch?: string }): Answer {
  const common = { "X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
  if (!asset) return { status: 404, headers: { ...common, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, body: "Not found\n" };

  const chosen = CODINGS.find(({ coding }) => acceptsCoding(request.acceptEncoding ?? "", coding));
  const etag = `"${asset.hash}${chosen?.suffix ?? ""}"`;
  const headers: Record<string, string> = {
    ...common,
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": ENTRIES.has(asset.name) ? CACHE_ENTRY : CACHE_HASHED,
    Vary: "Accept-Encoding",
    ETag: etag,
    ...(chosen ? { "Content-Encoding": chosen.coding } : {}),
  };
  const { ifNoneMatch } = request;
  if (ifNoneMatch && (ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))) {
    return { status: 304, headers, body: null };
  }
  return { status: 200, headers, body: chosen ? asset.encoded[chosen.coding] : asset.body };
}

export const WIDGET_PREFIX = "/sdk/v1/";

/**
 * A request under /sdk/v1/: GET or HEAD of one of the built files. An ApiRequest in and an ApiAnswer
 * out, so that the direct route answers without Fetch objects: a Request, a Response around the
 * bytes and reading them back out were a third of a widget answer's CPU (bench/README.md).
 */
export async function serveWidget(
  request: Pick<ApiRequest, "method" | "url" | "headers">,
  { dir = SDK_DIR, watch = false } = {},
): Promise<ApiAnswer> {
  if (request.method !== "GET" && request.method !== "HEAD") {
    return answer(405, { allow: "GET, HEAD", "cache-control": "no-store" });
  }
  const file = new URL(request.url).pathname.slice(WIDGET_PREFIX.length);
  const { status, headers, body } = respond(loadAssets(dir, watch)?.get(file), {
    acceptEncoding: request.headers.get("accept-encoding") ?? undefined,
    ifNoneMatch: request.headers.get("if-none-match") ?? undefined,
  });
  return { status, headers: new HeaderMap(headers), body: request.method === "HEAD" ? null : body };
}
