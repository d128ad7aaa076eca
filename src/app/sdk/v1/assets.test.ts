import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSdk } from "../../../../scripts/build-sdk.mjs";
import { loadAssets, respond, type Asset } from "./assets";

let dir: string;
let ui: string;
let assets: Map<string, Asset>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "referloop-sdk-"));
  ({ ui } = await buildSdk(dir));
  assets = loadAssets(dir)!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (file: string, headers: Record<string, string> = {}) => respond(assets.get(file), new Headers(headers));
const bytes = async (res: Response) => Buffer.from(await res.arrayBuffer());

describe("serving the widget files", () => {
  it("brotli when accepted, gzip otherwise, plain when neither; same bytes after decoding", async () => {
    const plain = await bytes(get("referloop.js"));
    expect(plain.toString()).toContain("Referloop");

    const br = get("referloop.js", { "Accept-Encoding": "gzip, deflate, br, zstd" });
    expect(br.headers.get("content-encoding")).toBe("br");
    expect(brotliDecompressSync(await bytes(br))).toEqual(plain);

    const gz = get("referloop.js", { "Accept-Encoding": "gzip, br;q=0" });
    expect(gz.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(await bytes(gz))).toEqual(plain);

    const identity = get("referloop.js", { "Accept-Encoding": "identity" });
    expect(identity.headers.get("content-encoding")).toBeNull();
    expect(Number(identity.headers.get("content-length"))).toBe(plain.length);
  });

  it("headers: script type, nosniff, CORS for module scripts, Vary; short cache for entries, forever for the hashed chunk", () => {
    for (const file of ["referloop.js", "referloop.mjs", ui]) {
      const res = get(file, { "Accept-Encoding": "br" });
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("access-control-allow-origin")).toBe("*");
      expect(res.headers.get("vary")).toBe("Accept-Encoding");
    }
    expect(get("referloop.js").headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(get("referloop.mjs").headers.get("cache-control")).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(get(ui).headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
  });

  it("strong ETag per encoding; 304 on If-None-Match, 200 when it names another version or encoding", async () => {
    const first = get(ui, { "Accept-Encoding": "gzip" });
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[\w-]+-gz"$/);
    expect(get(ui, { "Accept-Encoding": "br" }).headers.get("etag")).not.toBe(etag);

    const again = get(ui, { "Accept-Encoding": "gzip", "If-None-Match": `"other", ${etag}` });
    expect(again.status).toBe(304);
    expect(again.headers.get("etag")).toBe(etag);
    expect(again.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect((await bytes(again)).length).toBe(0);

    expect(get(ui, { "Accept-Encoding": "br", "If-None-Match": etag }).status).toBe(200);
    expect(get(ui, { "Accept-Encoding": "gzip", "If-None-Match": '"stale"' }).status).toBe(200);
  });

  it("unknown files are 404; a missing build is no crash", () => {
    expect(get("ui-OLDHASH.js").status).toBe(404);
    expect(get("manifest.json").status).toBe(404);
    expect(loadAssets(path.join(dir, "missing"))).toBeUndefined();
  });
});
