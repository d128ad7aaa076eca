/**
 * The web widget's size budget (packages/js/README.md): gzipped, minified by esbuild, what a page
 * loads up front at most 4 kB and the UI chunk (fetched when something is first drawn) at most 12 kB,
 * for the hosted script and for @referloop/js as a bundler builds it from a page's import.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { build } from "esbuild";
import { buildSdk } from "../scripts/build-sdk.mjs";

export const WIDGET_BUDGET = { upFrontBytes: 4000, uiBytes: 12000 };

export type WidgetSize = { name: string; kind: "up front" | "UI chunk"; bytes: number; gzipped: number };

const root = path.resolve(import.meta.dirname, "..");
const gzipped = (contents: Uint8Array) => gzipSync(contents, { level: 9 }).length;

export async function measureWidgetSizes(): Promise<WidgetSize[]> {
  const dir = mkdtempSync(path.join(tmpdir(), "referloop-widget-size-"));
  try {
    const hosted = await buildSdk(dir);
    const sizes: WidgetSize[] = hosted.files
      .filter((file) => file.endsWith(".js") || file.endsWith(".mjs"))
      .map((file) => {
        const contents = readFileSync(path.join(dir, file));
        return { name: `hosted ${file === hosted.ui ? "ui-<hash>.js" : file}`, kind: file === hosted.ui ? "UI chunk" : "up front", bytes: contents.length, gzipped: gzipped(contents) };
      });
    // A page that uses the whole API, bundled with code splitting as a bundler does.
    const page = await build({
      stdin: { contents: 'import { init, identify, open, close, on, getReferralLink } from "./packages/js/src/index.ts";\nexport { init, identify, open, close, on, getReferralLink };', resolveDir: root, loader: "ts" },
      bundle: true,
      splitting: true,
      format: "esm",
      minify: true,
      target: "es2020",
      outdir: path.join(dir, "package"),
      write: false,
      metafile: true,
      absWorkingDir: root,
      logLevel: "silent",
    });
    // The UI chunk is the output holding ui/index.ts; everything else (the entry, a shared chunk) loads up front.
    const outputs = page.metafile.outputs;
    const isUi = (file: string) => Object.keys(outputs[path.relative(root, file)]?.inputs ?? {}).some((input) => input.endsWith("packages/js/src/ui/index.ts"));
    for (const ui of [false, true]) {
      const files = page.outputFiles.filter((file) => isUi(file.path) === ui);
      const contents = Buffer.concat(files.map((file) => file.contents));
      sizes.push({ name: `@referloop/js ${ui ? "UI chunk" : "entry and shared chunks"}`, kind: ui ? "UI chunk" : "up front", bytes: contents.length, gzipped: gzipped(contents) });
    }
    return sizes;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
