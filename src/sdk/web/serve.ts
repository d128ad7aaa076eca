import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/*
 * Serving the built widget (scripts/build-sdk.mjs writes dist/sdk/v1) from src/app/sdk/v1/[file]/route.ts.
 * Entry files keep their names across releases and are cached briefly; every other file is named by its
 * content and cached forever.
 *
 * Compression is Next's: it gzips route handler responses for clients that accept gzip (`compress`, on
 * by default) and drops any Content-Encoding a route handler sets (Next 16 send-response.js,
 * FORBIDDEN_HEADERS), so precompressed gzip/brotli bodies cannot be sent from here. The ETag names the
 * representation Next will send, so one strong ETag always means the same bytes.
 */

// turbopackIgnore: a build output read at run time, not a build input.
export const SDK_DIR = path.resolve(/* turbopackIgnore: true */ process.cwd(), "dist/sdk/v1");

const ENTRIES = new Set(["referloop.js", "referloop.mjs"]);
const CACHE_ENTRY = "public, max-age=300, stale-while-revalidate=86400";
const CACHE_HASHED = "public, max-age=31536000, immutable";

export type Asset = { name: string; hash: string; body: Uint8Array<ArrayBuffer> };

let loaded: { dir: string; stamp: number; assets: Map<string, Asset> } | undefined;
let warnedMissing = false;

/**
 * The files, read once per build: the manifest's mtime is checked per request, so `next dev` (where
 * build-sdk rebuilds on change) serves the new files; a production process reads them once.
 */
export function loadAssets(dir = SDK_DIR): Map<string, Asset> | undefined {
  let stamp: number;
  try {
    stamp = statSync(path.join(dir, "manifest.json")).mtimeMs;
  } catch {
    if (!warnedMissing) console.warn(`[sdk] the widget is not built (${dir} is missing): run npm run build`);
    warnedMissing = true;
    return undefined;
  }
  if (loaded?.dir !== dir || loaded.stamp !== stamp) {
    const manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Record<string, string>;
    const assets = new Map<string, Asset>();
    for (const [name, hash] of Object.entries(manifest)) assets.set(name, { name, hash, body: new Uint8Array(readFileSync(path.join(dir, name))) });
    loaded = { dir, stamp, assets };
  }
  return loaded.assets;
}

/** Whether Accept-Encoding allows `coding` (present and not `q=0`). */
function accepts(acceptEncoding: string, coding: string): boolean {
  return acceptEncoding.split(",").some((part) => {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    return name === coding && !params.some((p) => /^q=0(\.0*)?$/.test(p));
  });
}

export type Answer = { status: number; headers: Record<string, string>; body: Uint8Array<ArrayBuffer> | string | null };

/** The HTTP answer for one file; 304 when If-None-Match names the representation this client gets. */
export function respond(asset: Asset | undefined, request: { acceptEncoding?: string; ifNoneMatch?: string }): Answer {
  const common = { "X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
  if (!asset) return { status: 404, headers: { ...common, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" }, body: "Not found\n" };

  // Next sends it gzipped to whoever accepts gzip: a distinct representation, a distinct strong ETag.
  const etag = `"${asset.hash}${accepts(request.acceptEncoding ?? "", "gzip") ? "-gz" : ""}"`;
  const headers: Record<string, string> = {
    ...common,
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": ENTRIES.has(asset.name) ? CACHE_ENTRY : CACHE_HASHED,
    Vary: "Accept-Encoding",
    ETag: etag,
  };
  const { ifNoneMatch } = request;
  if (ifNoneMatch && (ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))) {
    return { status: 304, headers, body: null };
  }
  return { status: 200, headers, body: asset.body };
}
