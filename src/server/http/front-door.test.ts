import { readdirSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { NEXT_ROUTE_SEGMENTS, nextTemplate, UNMATCHED_ROUTE } from "./front-door";

const appDir = new URL("../../app/", import.meta.url);
/** What Next.js serves from src/app at a path's first segment (its layout, page and styles serve `/`). */
const served = (dir: URL) => readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory() || /\.(svg|ico|png)$/.test(e.name)).map((e) => e.name);

describe("the Next.js route templates the metrics know", () => {
  it("cover every folder and file route of src/app, and under /api/ every folder", () => {
    expect(Object.keys(NEXT_ROUTE_SEGMENTS).filter((s) => s !== "_next").sort()).toEqual(served(appDir).sort());
    expect([...NEXT_ROUTE_SEGMENTS.api!].sort()).toEqual(served(new URL("api/", appDir)).sort());
  });

  it("name a path by its first segments, anything else one label", () => {
    expect(nextTemplate("/")).toBe("/");
    expect(nextTemplate("/dashboard")).toBe("/dashboard");
    expect(nextTemplate("/invitations/a-token")).toBe("/invitations/*");
    expect(nextTemplate("/api/trpc/projects.list")).toBe("/api/trpc/*");
    expect(nextTemplate("/_next/static/chunks/a.js")).toBe("/_next/static/*");
    for (const path of ["/0b6f6c1e-unknown", "/api/0b6f6c1e/%ff", "/api", "/_next/x", "/constructor", "/__proto__/x", "/toString"]) {
      expect(nextTemplate(path), path).toBe(UNMATCHED_ROUTE);
    }
  });
});
