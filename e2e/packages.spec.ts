import { execFile } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { build } from "esbuild";
import config from "../playwright.config";
import { createApiKey, signUp } from "./helpers";

/*
 * The client packages as an outside project gets them: each packed (`npm pack`, from the build's
 * dist/), the tarballs installed into a scratch folder outside the repository with their dependencies
 * from the registry and nothing else of this checkout, small programs (e2e/package-programs)
 * type-checked against them with the folder's own tsconfig, then run against the running app: a
 * referral with @referloop/node up to its webhook, verified on a real receiver (and a tampered copy
 * refused); the React Native client's identify; and the widget bundled by esbuild from @referloop/js,
 * in Chromium on another origin.
 */
const APP = config.use!.baseURL!;
const ROOT = path.resolve(import.meta.dirname, "..");
const PACKAGES = ["node", "js", "react-native"];
const run = promisify(execFile);

let scratch = "";
let api: APIRequestContext;
let apiKey = "";
const project = { id: "", publishableKey: "", campaignId: "" };
let shop: Server;
let SHOP = "";
const shopFiles = new Map<string, string>();

/** Runs a command to its end; a failure fails the test with its output. */
async function sh(command: string, args: string[], options: { cwd: string; env?: Record<string, string> }) {
  try {
    const { stdout } = await run(command, args, { ...options, env: { ...process.env, ...options.env }, maxBuffer: 16 * 1024 * 1024, timeout: 180_000 });
    return stdout;
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}`);
  }
}

/** The last line a program printed, parsed. */
const printed = (stdout: string) => JSON.parse(stdout.trim().split("\n").pop()!);

async function rest(method: "GET" | "POST" | "PUT", url: string, data?: object) {
  const res = await api.fetch(`/api/v1/public${url}`, { method, ...(data ? { data } : {}) });
  expect(res.status(), `${method} ${url}: ${await res.text()}`).toBeLessThan(300);
  return res.json();
}

test.beforeAll(async ({ browser, playwright }) => {
  test.setTimeout(300_000);
  for (const name of PACKAGES) {
    expect(existsSync(path.join(ROOT, "packages", name, "dist/index.js")), `packages/${name}/dist: run npm run build first`).toBe(true);
  }
  scratch = mkdtempSync(path.join(tmpdir(), "referloop-packages-"));
  const tarballs: string[] = [];
  for (const name of PACKAGES) {
    const [packed] = JSON.parse(await sh("npm", ["pack", "--json", "--pack-destination", scratch], { cwd: path.join(ROOT, "packages", name) })) as { filename: string }[];
    tarballs.push(path.join(scratch, packed!.filename));
  }
  writeFileSync(path.join(scratch, "package.json"), JSON.stringify({ name: "referloop-package-check", private: true, type: "module" }));
  // The tarballs and their dependencies from the registry; @types/node for the backend program's node:http.
  await sh("npm", ["install", "--no-audit", "--no-fund", "--ignore-scripts", "--no-package-lock", ...tarballs, "@types/node@24"], { cwd: scratch });
  for (const file of readdirSync(path.join(ROOT, "e2e/package-programs"))) copyFileSync(path.join(ROOT, "e2e/package-programs", file), path.join(scratch, file));
  writeFileSync(
    path.join(scratch, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", lib: ["ES2023", "DOM", "DOM.Iterable"], types: ["node"], strict: true, noEmit: true },
      include: ["*.ts"],
    }),
  );

  const page = await browser.newPage({ baseURL: APP });
  await signUp(page);
  apiKey = await createApiKey(page);
  await page.close();
  api = await playwright.request.newContext({ baseURL: APP, extraHTTPHeaders: { Authorization: `Bearer ${apiKey}` } });

  // The shop: its own origin, serving the page and the bundle built below.
  shop = createServer((req, res) => {
    const file = shopFiles.get(new URL(req.url ?? "/", "http://x").pathname);
    res.writeHead(file === undefined ? 404 : 200, { "Content-Type": req.url?.endsWith(".js") ? "text/javascript" : "text/html; charset=utf-8" });
    res.end(file ?? "not found");
  });
  await new Promise<void>((resolve) => shop.listen(0, "127.0.0.1", resolve));
  SHOP = `http://localhost:${(shop.address() as AddressInfo).port}`;
  const created = await rest("POST", "/projects", { name: "Package shop", referralRedirectLink: "https://shop.example.com/join", allowedOrigins: [SHOP] });
  Object.assign(project, { id: created.uniqueId, publishableKey: created.publishableKey, campaignId: created.campaignId });
});

test.afterAll(async () => {
  await api?.dispose();
  if (shop) await new Promise<void>((resolve) => shop.close(() => resolve()));
  if (scratch) rmSync(scratch, { recursive: true, force: true });
});

test("the installed packages type-check a backend, an app and a page, and refuse what the API refuses", async () => {
  const installed = readdirSync(path.join(scratch, "node_modules/@referloop")).sort();
  expect(installed).toEqual(["js", "node", "react-native"]);
  // Installed from the tarballs, not linked to this checkout.
  for (const name of installed) expect(path.relative(ROOT, path.join(scratch, "node_modules/@referloop", name)).startsWith("..")).toBe(true);
  await sh(process.execPath, [path.join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], { cwd: scratch });
});

test("@referloop/node: user, link, track, reward; the webhook verified with verifyWebhook, a tampered copy refused", async () => {
  test.setTimeout(120_000);
  const result = printed(await sh(process.execPath, ["node-flow.ts"], { cwd: scratch, env: { APP, API_KEY: apiKey, PROJECT_ID: project.id } }));
  expect(result.link).toMatch(/^https:\/\/shop\.example\.com\/join\?referralCode=/);
  expect(result.rewardClaimed).toBe(true);
  expect(result.event).toMatchObject({ type: "reward.granted", event: "purchase", referrerId: "pkg-ada", refereeId: "pkg-grace", trackingId: result.trackingId, rewardStatus: "Completed", projectId: project.id });
  expect(result.eventTrackingId).toBe(result.trackingId);
  expect(result.projectName).toBe("Package shop");
  expect(result.tamperedStatus).toBe(400);
  expect(result.rejected).toBe(1);
  expect(result.wrongSecret).toBe("WebhookVerificationError");
  // One user per page, every page walked: the referrers created and the referee the tracking created.
  expect(result.paged).toEqual(["pkg-ada", "pkg-bob", "pkg-grace"]);
  expect(result.problem).toMatchObject({ type: "urn:referloop:problem:not-found", status: 404, requestId: expect.any(String) });
  expect(result.problem.detail.length).toBeGreaterThan(0);
  // The server recorded it: the referral is Completed.
  const referrals = (await rest("GET", `/projects/${project.id}/referrals?pageSize=100`)).items as { referralTrackingId: string; status: string }[];
  expect(referrals).toContainEqual(expect.objectContaining({ referralTrackingId: result.trackingId, status: "Completed" }));
});

test("@referloop/react-native: identify against the app", async () => {
  const result = printed(await sh(process.execPath, ["mobile.ts"], { cwd: scratch, env: { APP, PUBLISHABLE_KEY: project.publishableKey } }));
  expect(result).toMatchObject({ ok: true, clientProvidedId: "pkg-mobile-user", referralCode: expect.stringMatching(/^[A-Za-z0-9]{6}$/) });
});

test("@referloop/js bundled by esbuild: nothing runs on import; on another origin it tracks the arrival, shows the banner and opens the sharing UI", async ({ page }) => {
  // Imported for nothing, it leaves nothing in the bundle: no side effect until init.
  writeFileSync(path.join(scratch, "bare.ts"), 'import "@referloop/js";\n');
  const bare = await build({ entryPoints: [path.join(scratch, "bare.ts")], absWorkingDir: scratch, bundle: true, minify: true, format: "esm", write: false, logLevel: "silent" });
  expect(bare.outputFiles[0]!.text.trim()).toBe("");

  await rest("PUT", `/projects/${project.id}/campaign`, {
    referrerExperience: { triggerButton: { buttonType: "floating", buttonPosition: "bottom-right" }, modal: { componentType: "modal", modalTitle: "Give 10%, get 10%", modalDescription: "Share your link." } },
    newUserExperience: { promoText: "Welcome from the package", promoPosition: "top-center" },
  });
  const zoe = await rest("POST", `/projects/${project.id}/users`, { clientProvidedId: "pkg-zoe", attributes: { name: "Zoe" } });

  const out = path.join(scratch, "www");
  mkdirSync(out, { recursive: true });
  const bundle = await build({
    entryPoints: [path.join(scratch, "widget.ts")],
    absWorkingDir: scratch,
    bundle: true,
    splitting: true,
    format: "esm",
    minify: true,
    outdir: out,
    write: false,
    define: { __REFERLOOP_APP__: JSON.stringify(APP), __REFERLOOP_KEY__: JSON.stringify(project.publishableKey) },
    logLevel: "silent",
  });
  // The UI is its own chunk, fetched when the widget first draws.
  expect(bundle.outputFiles.map((f) => path.basename(f.path))).toEqual(expect.arrayContaining(["widget.js", expect.stringMatching(/^ui-[A-Z0-9]+\.js$/)]));
  for (const file of bundle.outputFiles) shopFiles.set(`/${path.basename(file.path)}`, file.text);
  expect(shopFiles.get("/widget.js")).not.toContain("prefers-reduced-motion");
  shopFiles.set("/shop", `<!doctype html><html><head><title>Shop</title><script type="module" src="/widget.js"></script></head><body><h1>Shop</h1></body></html>`);

  const chunks: string[] = [];
  page.on("request", (request) => request.url().startsWith(SHOP) && chunks.push(new URL(request.url()).pathname));
  await page.goto(`${SHOP}/shop?referralCode=${zoe.referralCode}`);
  const banner = page.getByRole("region", { name: "Invitation" });
  await expect(banner).toContainText("Zoe invited you");
  await expect(banner).toContainText("Welcome from the package");
  await expect(page).toHaveURL(`${SHOP}/shop`);
  await expect(page.getByRole("button", { name: "Invite friends" })).toBeVisible();
  expect(chunks.some((p) => /^\/ui-[A-Z0-9]+\.js$/.test(p))).toBe(true);

  await page.evaluate(() => (window as unknown as { openReferloop: () => void }).openReferloop());
  await expect(page.getByRole("dialog", { name: "Give 10%, get 10%" })).toBeVisible();
  const events = (await page.evaluate(() => (window as unknown as { __events: [string, unknown][] }).__events)) as [string, Record<string, unknown> | null][];
  const tracked = events.find(([name]) => name === "referral_tracked")?.[1];
  expect(tracked).toMatchObject({ referralCode: zoe.referralCode, referralTrackingId: expect.any(String) });
  expect(events.find(([name]) => name === "ready")?.[1]).toMatchObject({ referralCode: expect.any(String), link: expect.stringContaining("referralCode=") });
  expect(events.map(([name]) => name)).toContain("open");
  // The arrival was recorded by the real endpoint, from the shop's origin.
  const given = (await rest("GET", `/projects/${project.id}/users/${zoe.uniqueId}/referrals?direction=given`)).items as { referralTrackingId: string }[];
  expect(given.map((r) => r.referralTrackingId)).toContain(tracked!.referralTrackingId);
  expect(readFileSync(path.join(scratch, "node_modules/@referloop/js/package.json"), "utf8")).toContain('"sideEffects": false');
});
