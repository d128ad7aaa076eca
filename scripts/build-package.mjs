#!/usr/bin/env node
/**
 * Builds one client package (run in its folder by its `npm run build`): tsc into dist/, JavaScript and
 * declarations. The sources import each other with `.ts` extensions, so that every tool of the
 * repository resolves them as they are (Next's Turbopack does not map `.js` to `.ts`); tsc rewrites
 * them to `.js` in the JavaScript (rewriteRelativeImportExtensions), and this script does the same in
 * the declarations, which tsc leaves alone.
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const dist = path.resolve("dist");
rmSync(dist, { recursive: true, force: true });
const tsc = path.resolve(import.meta.dirname, "../node_modules/typescript/bin/tsc");
const { status } = spawnSync(process.execPath, [tsc, "-p", "tsconfig.json"], { stdio: "inherit" });
if (status !== 0) process.exit(status ?? 1);

for (const file of readdirSync(dist, { recursive: true, encoding: "utf8" }).filter((f) => f.endsWith(".d.ts"))) {
  const full = path.join(dist, file);
  const text = readFileSync(full, "utf8");
  const rewritten = text.replace(/((?:from\s+|import\()["'])(\.{1,2}\/[^"']+)\.ts(["'])/g, "$1$2.js$3");
  if (rewritten !== text) writeFileSync(full, rewritten);
}
