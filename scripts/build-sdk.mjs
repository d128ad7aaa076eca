#!/usr/bin/env node
/**
 * Builds the hosted web widget from the @referloop/js sources (packages/js/src: one source for the
 * script and the npm package) into dist/sdk/v1, served by src/app/sdk/v1/[file]/route.ts:
 *   referloop.js   classic script (IIFE), the loader a page includes
 *   referloop.mjs  the same loader as an ES module
 *   ui-<hash>.js   the UI chunk, imported by the loader on demand; named by content, cached forever
 * and manifest.json (file -> sha256) for the route's ETags.
 *
 *   node scripts/build-sdk.mjs                  build once
 *   node scripts/build-sdk.mjs --watch -- CMD   build, rebuild on changes, and run CMD (e.g. next dev)
 */
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, rmSync, watch, writeFileSync } from "node:fs";
import path from "node:path";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const src = path.join(root, "packages/js/src");
export const OUT_DIR = path.join(root, "dist/sdk/v1");

const common = { bundle: true, minify: true, target: "es2020", platform: "browser", write: false, legalComments: "none", logLevel: "warning" };

/** Builds into `outDir` (emptied first); returns the UI chunk's file name and every file written. */
export async function buildSdk(outDir = OUT_DIR) {
  const ui = await build({ ...common, entryPoints: [path.join(src, "ui/index.ts")], format: "esm", outdir: outDir, entryNames: "ui-[hash]" });
  const uiFile = path.basename(ui.outputFiles[0].path);
  const define = { __UI_FILE__: JSON.stringify(`./${uiFile}`) };
  const [loader, module] = await Promise.all([
    build({ ...common, entryPoints: [path.join(src, "hosted/loader.ts")], format: "iife", define, outfile: path.join(outDir, "referloop.js") }),
    build({ ...common, entryPoints: [path.join(src, "hosted/module.ts")], format: "esm", define, outfile: path.join(outDir, "referloop.mjs") }),
  ]);

  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const manifest = {};
  for (const file of [...ui.outputFiles, ...loader.outputFiles, ...module.outputFiles]) {
    const name = path.basename(file.path);
    const out = path.join(outDir, name);
    writeFileSync(out, file.contents);
    manifest[name] = createHash("sha256").update(file.contents).digest("base64url").slice(0, 22);
  }
  // Written last: the route reloads when the manifest changes.
  writeFileSync(path.join(outDir, "manifest.json"), JSON.stringify(manifest, null, 2));
  return { ui: uiFile, files: readdirSync(outDir) };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const started = Date.now();
  await buildSdk();
  console.log(`[build-sdk] widget built into ${path.relative(root, OUT_DIR)} in ${Date.now() - started} ms`);

  if (process.argv.includes("--watch")) {
    let timer;
    watch(src, { recursive: true }, () => {
      clearTimeout(timer);
      timer = setTimeout(() => buildSdk().then(() => console.log("[build-sdk] widget rebuilt"), (error) => console.error(`[build-sdk] ${error.message}`)), 100);
    });
    const command = process.argv.slice(process.argv.indexOf("--") + 1);
    if (process.argv.includes("--") && command.length > 0) {
      const child = spawn(command[0], command.slice(1), { stdio: "inherit", shell: process.platform === "win32" });
      child.on("exit", (code, signal) => process.exit(signal ? 1 : (code ?? 0)));
      for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
    }
  }
}
