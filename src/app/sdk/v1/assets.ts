import { readFileSync, statSync } from "node:fs";
import path from "node:path";

/*
 * The built widget (scripts/build-sdk.mjs writes dist/sdk/v1): each file with its gzip and brotli
 * twins, served with strong ETags. Entry files keep their names across releases and are cached briefly;
 * every other file is named by its content and cached forever.
 */

// turbopackIgnore: a build output read at run time, not a build input.
export const SDK_DIR = path.resolve(/* turbopackIgnore: true */ process.cwd(), "dist/sdk/v1");

const ENTRIES = new Set(["referloop.js", "referloop.mjs"]);
const CACHE_ENTRY = "public, max-age=300, stale-while-revalidate=86400";
const CACHE_HASHED = "public, max-age=31536000, immutable";

type Encoding = "br" | "gzip" | "identity";
export type Asset = { name: string; hash: string; bodies: Record<Encoding, Uint8Array<ArrayBuffer>> };

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
    for (const [name, hash] of Object.entries(manifest)) {
      const file = path.join(dir, name);
      const read = (suffix: string) => new Uint8Array(readFileSync(file + suffix));
      assets.set(name, { name, hash, bodies: { identity: read(""), gzip: read(".gz"), br: read(".br") } });
    }
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

const ETAG_SUFFIX: Record<Encoding, string> = { br: "-br", gzip: "-gz", identity: "" };

/** The HTTP answer for one file: encoding by Accept-Encoding, 304 on a matching If-None-Match. */
export function respond(asset: Asset | undefined, request: Headers): Response {
  const common = { "X-Content-Type-Options": "nosniff", "Access-Control-Allow-Origin": "*", "Cross-Origin-Resource-Policy": "cross-origin" };
  if (!asset) return new Response("Not found\n", { status: 404, headers: { ...common, "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });

  const acceptEncoding = request.get("accept-encoding") ?? "";
  const encoding: Encoding = accepts(acceptEncoding, "br") ? "br" : accepts(acceptEncoding, "gzip") ? "gzip" : "identity";
  // Strong, and one per encoding: the bytes differ.
  const etag = `"${asset.hash}${ETAG_SUFFIX[encoding]}"`;
  const headers: Record<string, string> = {
    ...common,
    "Content-Type": "text/javascript; charset=utf-8",
    "Cache-Control": ENTRIES.has(asset.name) ? CACHE_ENTRY : CACHE_HASHED,
    Vary: "Accept-Encoding",
    ETag: etag,
  };
  const ifNoneMatch = request.get("if-none-match");
  if (ifNoneMatch && (ifNoneMatch.trim() === "*" || ifNoneMatch.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag))) {
    return new Response(null, { status: 304, headers });
  }
  if (encoding !== "identity") headers["Content-Encoding"] = encoding;
  const body = asset.bodies[encoding];
  headers["Content-Length"] = String(body.length);
  return new Response(body, { status: 200, headers });
}
