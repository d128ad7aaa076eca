import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSdk } from "../../../scripts/build-sdk.mjs";

/** The widget's size budget (issue: loader <= 4 kB gzipped, UI <= 12 kB gzipped), on a fresh build. */
const LOADER_BUDGET = 4000;
const UI_BUDGET = 12000;

let dir: string;
let ui: string;
const read = (file: string) => readFileSync(path.join(dir, file));
const gzipped = (file: string) => gzipSync(read(file), { level: 9 }).length;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), "referloop-sdk-"));
  ({ ui } = await buildSdk(dir));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("web widget size budget", () => {
  it.each(["referloop.js", "referloop.mjs"])("the loader %s is at most 4 kB gzipped", (file) => {
    const size = gzipped(file);
    console.log(`${file}: ${size} bytes gzipped (budget ${LOADER_BUDGET})`);
    expect(size).toBeLessThanOrEqual(LOADER_BUDGET);
  });

  it("the UI chunk is at most 12 kB gzipped", () => {
    const size = gzipped(ui);
    console.log(`${ui}: ${size} bytes gzipped (budget ${UI_BUDGET})`);
    expect(size).toBeLessThanOrEqual(UI_BUDGET);
  });

  it("the loader does not contain the UI: it imports the hashed chunk on demand", () => {
    expect(ui).toMatch(/^ui-[A-Z0-9]{8}\.js$/);
    const chunk = read(ui).toString();
    for (const file of ["referloop.js", "referloop.mjs"]) {
      const loader = read(file).toString();
      expect(loader).toContain(`"./${ui}"`);
      // Pieces only the UI has: its stylesheet, its labels, its share targets.
      for (const marker of ["prefers-reduced-motion", "Invite friends", "Copy link", "wa.me"]) {
        expect(chunk).toContain(marker);
        expect(loader).not.toContain(marker);
      }
    }
  });
});
