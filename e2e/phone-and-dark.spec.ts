import { expect, test } from "@playwright/test";
import { dashboardPages, seedProject, startOkReceiver } from "./dashboard-pages";
import { signUp } from "./helpers";

test("at 390 px: no page scrolls sideways, the menu button opens and closes the navigation, the project tabs stay reachable", async ({ page, request }) => {
  test.setTimeout(180_000);
  const receiver = await startOkReceiver();
  try {
    await signUp(page, { organization: "Phone Co" });
    const seed = await seedProject(page, request, receiver.url);
    await page.setViewportSize({ width: 390, height: 844 });

    for (const path of dashboardPages(seed)) {
      await page.goto(path);
      await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow, `${path} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
    }

    // The navigation hides behind the menu button.
    await page.goto("/dashboard");
    const nav = page.getByRole("navigation", { name: "Dashboard" });
    const menu = page.getByRole("button", { name: "Menu" });
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");
    await menu.click();
    await expect(menu).toHaveAttribute("aria-expanded", "true");
    await expect(nav).toBeVisible();
    // Focus moves into the menu (its first enabled control: the organisation switcher is disabled with
    // one organisation); Escape closes it and gives focus back to the button.
    await expect(nav.getByRole("link", { name: "Projects" })).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(nav).toBeHidden();
    await expect(menu).toBeFocused();
    // A link in it opens its page and closes the menu.
    await menu.click();
    await nav.getByRole("link", { name: "API keys" }).click();
    await expect(page).toHaveURL(/\/dashboard\/api-keys$/);
    await expect(nav).toBeHidden();
    await expect(menu).toHaveAttribute("aria-expanded", "false");

    // Every project tab can be reached and opened on a phone.
    await page.goto(`/dashboard/projects/${seed.projectId}`);
    const tabs = page.getByRole("navigation", { name: "Project sections" });
    for (const name of ["Webhooks", "Activity", "App users"]) {
      await tabs.getByRole("link", { name, exact: true }).click();
      await expect(tabs.getByRole("link", { name, exact: true })).toHaveAttribute("aria-current", "page");
    }
    // The app users table keeps its first column in view and its actions reachable.
    const users = page.getByRole("table", { name: "App users" });
    // (Across, not down: the table may start below the fold of an 844 px screen.)
    const first = (await users.getByRole("link", { name: "alice" }).boundingBox())!;
    expect(first.x).toBeGreaterThanOrEqual(0);
    expect(first.x + first.width).toBeLessThanOrEqual(390);
  } finally {
    await receiver.close();
  }
});

test("the skip link jumps to the page's content", async ({ page }) => {
  await signUp(page, { organization: "Skip Co" });
  await page.keyboard.press("Tab");
  const skip = page.getByRole("link", { name: "Skip to content" });
  await expect(skip).toBeFocused();
  await skip.press("Enter");
  await expect(page.locator("main#main")).toBeFocused();
});

test("dark mode follows the system until the switch says otherwise, and the choice is kept without a flash", async ({ page }) => {
  await page.emulateMedia({ colorScheme: "dark" });
  await signUp(page, { organization: "Dark Co" });
  const html = page.locator("html");
  const theme = page.getByRole("group", { name: "Theme" });
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(theme.getByRole("button", { name: "System" })).toHaveAttribute("aria-pressed", "true");

  // The system turns light: so does the page, while the choice is "System".
  await page.emulateMedia({ colorScheme: "light" });
  await expect(html).not.toHaveClass(/\bdark\b/);
  const lightBackground = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);

  // Chosen dark: kept over reloads, and set before the first paint (the class is in the document the
  // browser first renders, before any of the app's scripts ran).
  await theme.getByRole("button", { name: "Dark" }).click();
  await expect(html).toHaveClass(/\bdark\b/);
  await expect(theme.getByRole("button", { name: "Dark" })).toHaveAttribute("aria-pressed", "true");
  const classAtFirstPaint: string[] = [];
  await page.exposeFunction("reportClass", (c: string) => classAtFirstPaint.push(c));
  await page.addInitScript(() => {
    document.addEventListener("DOMContentLoaded", () => (window as unknown as { reportClass(c: string): void }).reportClass(document.documentElement.className), { once: true });
  });
  await page.reload();
  await expect.poll(() => classAtFirstPaint[0]).toMatch(/\bdark\b/);
  await expect(html).toHaveClass(/\bdark\b/);
  const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(background).not.toBe(lightBackground);

  // Back to the system's setting (light now).
  await theme.getByRole("button", { name: "System" }).click();
  await expect(html).not.toHaveClass(/\bdark\b/);
  await page.reload();
  await expect(html).not.toHaveClass(/\bdark\b/);
});
