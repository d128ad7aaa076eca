import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { expect, test, type BrowserContext, type BrowserContextOptions, type Page } from "@playwright/test";
import type { AxeResults } from "axe-core";
import { dashboardPages, seedProject, startOkReceiver, type SeededProject } from "./dashboard-pages";
import { signUp } from "./helpers";

/**
 * axe-core on every page of the dashboard and the signed-out pages, in light and in dark (the
 * system's setting, which the theme follows while its switch says System): no violation of impact
 * serious or critical. Nothing is excluded. One seeded project; one browser context per scheme.
 */

const SIGNED_OUT_PAGES = ["/sign-in", "/sign-up", "/forgot-password"];

/** What matters: what keeps someone from using the page (contrast, names, structure). */
const BLOCKING = new Set(["serious", "critical"]);

/** The blocking violations of one page, one readable paragraph each (rule, help, the first elements). */
function describe(scheme: string, path: string, results: AxeResults): string[] {
  return results.violations
    .filter((v) => BLOCKING.has(v.impact ?? ""))
    .map((v) => {
      const nodes = v.nodes.slice(0, 6).map((n) => `    ${n.target.join(" >> ")}\n      ${(n.failureSummary ?? "").replace(/\n\s*/g, " / ")}`);
      const more = v.nodes.length > 6 ? [`    … and ${v.nodes.length - 6} more`] : [];
      return [`${scheme} ${path}: ${v.id} (${v.impact}) ${v.help} [${v.helpUrl}]`, ...nodes, ...more].join("\n");
    });
}

/** Waits for the page to have drawn what it loads (its heading, no "Loading…" left), then runs axe. */
async function check(page: Page, scheme: string, path: string): Promise<string[]> {
  await page.goto(path);
  await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  // The theme the page shows is the one asked for (the switch follows the system by default).
  if (scheme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
  else await expect(page.locator("html")).not.toHaveClass(/\bdark\b/);
  // axe.run in the page itself ("legacy mode") instead of runPartial per frame and finishRun in a blank
  // page: the same violations, node for node, at 40% of the time (the API reference: 10 s instead of
  // 51 s, each serialising 18,000 nodes' partial results). Its one limit is that it skips cross-origin
  // frames, and the dashboard has none: this says so, and fails when one appears.
  const origin = new URL(page.url()).origin;
  const crossOrigin = page.frames().filter((frame) => frame.url() !== "about:blank" && new URL(frame.url()).origin !== origin);
  expect(crossOrigin.map((frame) => frame.url()), `${path} has cross-origin frames, which axe's legacy mode does not check`).toEqual([]);
  // Violations in full, passes and reviews one node each: the API reference alone passes 11,000.
  return describe(scheme, path, await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode().analyze());
}

/** The dashboard's routes as folders ("projects/[projectId]/users"), from its page.tsx files. */
function dashboardRoutes(dir = join(process.cwd(), "src/app/dashboard")): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return dashboardRoutes(path);
    return entry.name === "page.tsx" ? [relative(join(process.cwd(), "src/app"), dir).split(sep).join("/")] : [];
  });
}

test.describe.configure({ mode: "serial" });

let seed: SeededProject;
let signedIn: Awaited<ReturnType<BrowserContext["storageState"]>>;
let receiver: Awaited<ReturnType<typeof startOkReceiver>>;

test.beforeAll(async ({ browser }) => {
  test.setTimeout(120_000);
  receiver = await startOkReceiver();
  const context = await browser.newContext();
  const page = await context.newPage();
  await signUp(page, { organization: "Axe Co" });
  seed = await seedProject(page, context.request, receiver.url);
  signedIn = await context.storageState();
  await context.close();
});

test.afterAll(async () => {
  await receiver?.close();
});

test("the walk covers every page of the dashboard", () => {
  const walked = dashboardPages(seed).map((path) => path.slice(1));
  for (const route of dashboardRoutes()) {
    const pattern = new RegExp(`^${route.replace(/\[[^\]]+\]/g, "[^/]+")}$`);
    expect(walked.some((path) => pattern.test(path)), `dashboardPages() has no page for src/app/${route}/page.tsx`).toBe(true);
  }
});

for (const colorScheme of ["light", "dark"] as const satisfies BrowserContextOptions["colorScheme"][]) {
  test(`axe: no serious or critical violation on any page, ${colorScheme}`, async ({ browser }) => {
    // About 30 pages: 1 minute on a quick VM, 2.4 on a slow hour of the same one.
    test.setTimeout(480_000);
    // Still pictures: a chart or a sheet caught mid-animation would be measured at half its colour.
    const context = await browser.newContext({ colorScheme, reducedMotion: "reduce" });
    const page = await context.newPage();
    const violations: string[] = [];
    try {
      for (const path of SIGNED_OUT_PAGES) violations.push(...(await check(page, colorScheme, path)));
      await context.addCookies(signedIn.cookies);
      for (const path of dashboardPages(seed)) violations.push(...(await check(page, colorScheme, path)));
    } finally {
      await context.close();
    }
    // The count, so that the message (each violation's rule, help and elements) is printed once.
    expect(violations.length, `${violations.length} serious or critical axe violations:\n\n${violations.join("\n\n")}`).toBe(0);
  });
}
