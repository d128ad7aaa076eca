import { mkdtempSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSdk } from "../../../scripts/build-sdk.mjs";
import { fromFetchRequest } from "./api-exchange";
import { loadAssets, respond, serveWidget, type Asset } from "./widget-files";

let dir: string;
let ui: string;
let assets: Map<string, Asset>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "referloop-sdk-"));
  ({ ui } = await buildSdk(dir));
  assets = loadAssets(dir)!;
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const get = (file: string, request: { acceptEncoding?: string; ifNoneMatch?: string } = {}) => respond(assets.get(file), request);

describe("serving the widget files", () => {
  it("the built bytes, typed as scripts, nosniff, CORS for module scripts, Vary", () => {
    for (const file of ["referloop.js", "referloop.mjs", ui]) {
      const res = get(file, { acceptEncoding: "identity" });
      expect(res.status).toBe(200);
      expect(res.headers["Content-Encoding"]).toBeUndefined();
      expect(Buffer.from(res.body as Uint8Array)).toEqual(readFileSync(path.join(dir, file)));
      expect(res.headers).toMatchObject({
        "Content-Type": "text/javascript; charset=utf-8",
        "X-Content-Type-Options": "nosniff",
        "Access-Control-Allow-Origin": "*",
        Vary: "Accept-Encoding",
      });
    }
  });

  it("short cache with stale-while-revalidate for the entries, forever for the hashed chunk", () => {
    expect(get("referloop.js").headers["Cache-Control"]).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(get("referloop.mjs").headers["Cache-Control"]).toBe("public, max-age=300, stale-while-revalidate=86400");
    expect(get(ui).headers["Cache-Control"]).toBe("public, max-age=31536000, immutable");
  });

  it("compressed once, brotli preferred over gzip, the same bytes once decoded", () => {
    const built = readFileSync(path.join(dir, ui));
    const br = get(ui, { acceptEncoding: "gzip, deflate, br" });
    expect(br.headers["Content-Encoding"]).toBe("br");
    expect(brotliDecompressSync(br.body as Uint8Array)).toEqual(built);
    const gz = get(ui, { acceptEncoding: "gzip, br;q=0" });
    expect(gz.headers["Content-Encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body as Uint8Array)).toEqual(built);
    expect((gz.body as Uint8Array).length).toBeLessThan(built.length / 2);
    expect(get(ui, { acceptEncoding: "gzip" }).body).toBe(gz.body); // not compressed per request
  });

  it("a strong ETag per representation; 304 when If-None-Match names it", () => {
    const gzip = get(ui, { acceptEncoding: "gzip, deflate" }).headers.ETag!;
    const brotli = get(ui, { acceptEncoding: "gzip, deflate, br" }).headers.ETag!;
    const plain = get(ui, { acceptEncoding: "identity" }).headers.ETag!;
    expect(gzip).toMatch(/^"[\w-]+-gz"$/);
    expect(brotli).toMatch(/^"[\w-]+-br"$/);
    expect(plain).toMatch(/^"[\w-]+"$/);
    expect(get(ui, { acceptEncoding: "gzip;q=0, deflate" }).headers.ETag).toBe(plain);

    const again = get(ui, { acceptEncoding: "gzip", ifNoneMatch: `"other", ${gzip}` });
    expect(again).toMatchObject({ status: 304, body: null });
    expect(again.headers).toMatchObject({ ETag: gzip, "Cache-Control": "public, max-age=31536000, immutable" });
    expect(get(ui, { acceptEncoding: "gzip", ifNoneMatch: `W/${gzip}` }).status).toBe(304);
    expect(get(ui, { acceptEncoding: "identity", ifNoneMatch: gzip }).status).toBe(200);
    expect(get(ui, { acceptEncoding: "gzip", ifNoneMatch: '"stale"' }).status).toBe(200);
  });

  it("reads the files once; watching (next dev), again after a rebuild", () => {
    expect(loadAssets(dir)).toBe(assets);
    expect(loadAssets(dir, true)).toBe(assets);
    utimesSync(path.join(dir, "manifest.json"), new Date(), new Date(Date.now() + 5000));
    expect(loadAssets(dir)).toBe(assets); // production: the loaded build, without looking at the disk
    expect(loadAssets(dir, true)).not.toBe(assets);
    assets = loadAssets(dir)!;
  });

  it("unknown files are 404; a missing build is no crash", () => {
    expect(get("ui-OLDHASH.js").status).toBe(404);
    expect(get("manifest.json").status).toBe(404);
    expect(loadAssets(path.join(dir, "missing"))).toBeUndefined();
  });
});

describe("a request under /sdk/v1/", () => {
  it("GET and HEAD only; HEAD without the body", async () => {
    const post = await serveWidget(fromFetchRequest(new Request("http://x/sdk/v1/referloop.js", { method: "POST" })), { dir });
    expect(post.status).toBe(405);
    expect(post.headers.get("allow")).toBe("GET, HEAD");
    const head = await serveWidget(fromFetchRequest(new Request("http://x/sdk/v1/referloop.js", { method: "HEAD", headers: { "accept-encoding": "br" } })), { dir });
    expect(head.status).toBe(200);
    expect(head.headers.get("content-encoding")).toBe("br");
    expect(head.body).toBeNull();
    expect((await serveWidget(fromFetchRequest(new Request("http://x/sdk/v1/nested/referloop.js")), { dir })).status).toBe(404);
  });
});
