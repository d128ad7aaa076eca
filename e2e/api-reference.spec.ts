import AxeBuilder from "@axe-core/playwright";
import { expect, test, type Page } from "@playwright/test";
import { signUp } from "./helpers";

/**
 * The API reference as an integrator uses it, at a desktop's width and a phone's: a searchable
 * index of the operations, one operation at a time with a curl request and its answer to copy, a
 * small page, nothing fetched from another host, and axe finds nothing serious.
 */

/** Each width in one of the two colour schemes (the theme follows the system's by default). */
const WIDTHS = [
  { name: "desktop", viewport: { width: 1440, height: 900 }, colorScheme: "light" },
  { name: "phone", viewport: { width: 390, height: 844 }, colorScheme: "dark" },
] as const;

async function blockingViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode().analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")})`);
}

for (const { name, viewport, colorScheme } of WIDTHS) {
  test(`API reference at ${name} width, ${colorScheme}: search, one operation, samples, axe`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.emulateMedia({ colorScheme });
    const foreign: string[] = [];
    const ownHost = new URL(test.info().project.use.baseURL!).host;
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (/^https?:$/.test(url.protocol) && url.host !== ownHost) foreign.push(request.url());
    });
    await signUp(page);
    await page.goto("/dashboard/api-reference");
    await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();
    if (colorScheme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
    const index = page.getByRole("navigation", { name: "API reference contents" });
    const search = index.getByRole("searchbox", { name: "Search operations" });
    await expect(search).toBeVisible();
    await expect(page.getByRole("heading", { name: "Referloop API", level: 2 })).toBeVisible();
    expect(await blockingViolations(page), "overview").toEqual([]);

    // Search narrows the index: every word, any case.
    await search.fill("ROTATE webhook");
    await expect(index.getByRole("status")).toHaveText("1 operation match");
    const link = index.getByRole("link", { name: /Rotate a webhook's secret/ });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page).toHaveURL(/#op-/);

    // One operation at a time, with its samples.
    const op = page.getByRole("region", { name: "POST /public/projects/{projectId}/webhooks/{webhookId}/rotate-secret", exact: true });
    await expect(op).toBeVisible();
    await expect(page.getByRole("region", { name: /^GET /, exact: false })).toHaveCount(0);
    const curl = page.getByLabel("Request (curl)", { exact: true });
    await expect(curl).toContainText("curl -X POST");
    await expect(curl).toContainText("/api/v1/public/projects/");
    await expect(curl).toContainText('-H "Authorization: Bearer $REFERLOOP_API_KEY"');
    await expect(curl).toContainText('"overlapHours": 24');
    await expect(page.getByLabel(/^Answer 200/)).toContainText('"previousSecretExpiresAt"');
    // The request sample is one that works against this server (the base URL is this origin).
    await expect(curl).toContainText(new URL(page.url()).origin);
    expect(await blockingViolations(page), "an operation").toEqual([]);

    // A small page: the whole document in one page was 18,000 elements and 188,000 px tall.
    expect(await page.locator("*").count()).toBeLessThan(2500);
    expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(12_000);

    // The browser's back button returns to the overview; a schema opens by its link.
    await page.goBack();
    await expect(page.getByRole("heading", { name: "Referloop API", level: 2 })).toBeVisible();
    await search.fill("ProjectSecretRotatedDto");
    await index.getByRole("link", { name: "ProjectSecretRotatedDto" }).click();
    await expect(page.getByRole("heading", { name: "ProjectSecretRotatedDto", level: 2 })).toBeVisible();
    await search.fill("no such operation at all");
    await expect(index.getByText("Nothing matches")).toBeVisible();

    expect(foreign).toEqual([]);
  });
}
