import { parseIconFile } from "@/server/domain/icons/icon-path";
import type { IconStore } from "@/server/domain/icons/icon-store";

/** Content-addressed: the bytes at a URL never change, so caches may keep them for a year without asking. */
export const IMMUTABLE = "public, max-age=31536000, immutable";

/**
 * `GET /icons/{sha256}.{ext}`: an uploaded app icon, for app stores' look-alikes everywhere (the landing
 * page, apps, the dashboard). The path's type must be the stored type, so a URL always says what it
 * serves; nosniff keeps browsers to it.
 */
export async function serveIcon(file: string, ifNoneMatch: string | null, store: IconStore): Promise<Response> {
  const named = parseIconFile(file);
  const icon = named && (await store.load(named.sha256));
  if (!named || !icon || icon.contentType !== named.type) {
    return new Response("Not found.\n", { status: 404, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" } });
  }
  const etag = `"${icon.sha256}"`;
  const headers = {
    "cache-control": IMMUTABLE,
    etag,
    "x-content-type-options": "nosniff",
    // Shown by pages and apps on other origins.
    "cross-origin-resource-policy": "cross-origin",
  };
  if (ifNoneMatch?.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*")) {
    return new Response(null, { status: 304, headers });
  }
  return new Response(new Uint8Array(icon.bytes), {
    headers: { ...headers, "content-type": icon.contentType, "content-length": String(icon.bytes.byteLength) },
  });
}
