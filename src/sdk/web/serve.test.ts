import { mkdtempSync, readFileSync, rmSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSdk } from "../../../scripts/build-sdk.mjs";
import { loadAssets, respond, type Asset } from "./serve";

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
      const res = get(file, { acceptEncoding: "gzip, br" });
      expect(res.status).toBe(200);
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

  it("a strong ETag per representation (gzipped by Next or not); 304 when If-None-Match names it", () => {
    const gzip = get(ui, { acceptEncoding: "gzip, deflate, br" }).headers.ETag!;
    const plain = get(ui, { acceptEncoding: "identity" }).headers.ETag!;
    expect(gzip).toMatch(/^"[\w-]+-gz"$/);
    expect(plain).toMatch(/^"[\w-]+"$/);
    expect(get(ui, { acceptEncoding: "gzip;q=0, br" }).headers.ETag).toBe(plain);

    const again = get(ui, { acceptEncoding: "gzip", ifNoneMatch: `"other", ${gzip}` });
    expect(again).toMatchObject({ status: 304, body: null });
    expect(again.headers).toMatchObject({ ETag: gzip, "Cache-Control": "public, max-age=31536000, immutable" });
    expect(get(ui, { acceptEncoding: "gzip", ifNoneMatch: `W/${gzip}` }).status).toBe(304);
    expect(get(ui, { acceptEncoding: "identity", ifNoneMatch: gzip }).status).toBe(200);
    expect(get(ui, { acceptEncoding: "gzip", ifNoneMatch: '"stale"' }).status).toBe(200);
  });

  it("reads the files once per build, again after a rebuild", () => {
    expect(loadAssets(dir)).toBe(assets);
    utimesSync(path.join(dir, "manifest.json"), new Date(), new Date(Date.now() + 5000));
    expect(loadAssets(dir)).not.toBe(assets);
    assets = loadAssets(dir)!;
  });

  it("unknown files are 404; a missing build is no crash", () => {
    expect(get("ui-OLDHASH.js").status).toBe(404);
    expect(get("manifest.json").status).toBe(404);
    expect(loadAssets(path.join(dir, "missing"))).toBeUndefined();
  });
});
