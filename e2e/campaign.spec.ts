import { expect, test } from "@playwright/test";
import { createProject, openProjectTab, signUp } from "./helpers";

test("campaign: edit both experiences, live preview, per-field server errors, saved values survive a reload", async ({ page }) => {
  await signUp(page);
  const projectId = await createProject(page, { name: "Campaign shop" });
  // The settings show the project's publishable key; the setup snippet below carries it.
  const publishableKey = (await page.getByLabel("Publishable key", { exact: true }).textContent()) ?? "";
  expect(publishableKey).toMatch(/^pk_[\w-]{43}$/);
  await openProjectTab(page, projectId, "Campaign");
  const form = page.getByRole("form", { name: "Campaign" });
  const preview = page.getByRole("complementary", { name: "Preview" });
  // The widget's own UI, drawn in its shadow root on the mock page.
  const widget = preview.getByTestId("widget-preview");
  // Still pictures: the sheet's slide-in would move it while it is measured.
  await page.emulateMedia({ reducedMotion: "reduce" });
  const show = (state: string) => preview.getByRole("group", { name: "Preview state" }).getByRole("button", { name: state }).click();

  // Defaults from the server.
  await expect(form.getByLabel("Button type")).toHaveValue("floating");
  await expect(form.getByLabel("Theme colour", { exact: true })).toHaveValue("#4F46E5");
  const trigger = widget.getByText("Invite friends");
  await expect(trigger).toBeVisible();
  await expect(trigger).toHaveCSS("background-color", "rgb(79, 70, 229)");
  await show("New-user banner");
  await expect(widget).toContainText("No promo text");
  await show("Button");

  // Invalid values are refused by the server, each under its own field.
  await form.getByLabel("Theme colour", { exact: true }).fill("#12");
  await form.getByLabel("Title").fill("x".repeat(201));
  await expect(form.getByText("201 / 200 characters")).toBeVisible();
  await form.getByRole("button", { name: "Save campaign" }).click();
  await expect(form.getByText("Theme colour must be a hex colour #RRGGBB.")).toBeVisible();
  await expect(form.getByLabel("Theme colour", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");
  // In plain words (not zod's "Too big: expected string to have <=200 characters"), and focus on the
  // first field to fix; again on a second try with the same mistakes.
  await expect(form.getByLabel("Title")).toHaveAccessibleDescription(/Title must be at most 200 characters\.$/);
  await expect(form.getByLabel("Title")).toBeFocused();
  await form.getByRole("button", { name: "Save campaign" }).click();
  await expect(form.getByLabel("Title")).toBeFocused();

  // Valid values save; the preview follows the form before saving.
  await form.getByLabel("Theme colour", { exact: true }).fill("#0E7490");
  // The colour box shows all of #RRGGBB, widest letters included, without scrolling its text.
  for (const label of ["Theme colour", "Background colour", "Tint colour"]) {
    const box = form.getByLabel(label, { exact: true });
    const value = await box.inputValue();
    await box.fill("#WWWWWW");
    expect(await box.evaluate((el) => el.scrollWidth - el.clientWidth), `${label} box is too narrow for #RRGGBB`).toBeLessThanOrEqual(0);
    await box.fill(value);
  }
  await form.getByLabel("Title").fill("Give 10%, get 10%");
  await form.getByLabel("Component").selectOption("drawer");
  await form.getByLabel("Button type").selectOption("edge");
  await form.getByLabel("Button position").selectOption("top-left");
  await form.getByLabel("Tint opacity").fill("0.7");
  await form.getByLabel("Promo text").fill("Welcome! Your friend gave you 10% off.");
  await form.getByLabel("Promo position").selectOption("bottom-center");
  await form.getByLabel("Attribution window (days)").fill("14");
  await expect(form.getByLabel("Referee who arrived more than once")).toHaveValue("first");
  await form.getByLabel("Referee who arrived more than once").selectOption("last");
  // The preview follows every field before saving: colour and edge tab, then the drawer, then the banner.
  await expect(trigger).toHaveCSS("background-color", "rgb(14, 116, 144)");
  expect((await trigger.boundingBox())!.x).toBe((await widget.boundingBox())!.x);
  await show("Open drawer");
  const sheet = widget.locator(".d");
  await expect(sheet).toContainText("Give 10%, get 10%");
  await expect(widget.locator(".bd")).toHaveCSS("background-color", "rgba(0, 0, 0, 0.7)");
  await form.getByLabel("Title").fill("Invite a friend, both get 10%");
  await expect(sheet).toContainText("Invite a friend, both get 10%");
  const sheetBox = (await sheet.boundingBox())!;
  const frameBox = (await widget.boundingBox())!;
  expect(sheetBox.y + sheetBox.height).toBeCloseTo(frameBox.y + frameBox.height, 0);
  await show("New-user banner");
  await expect(widget).toContainText("Ada invited you");
  await expect(widget).toContainText("Welcome! Your friend gave you 10% off.");
  await form.getByLabel("Promo text").fill("Welcome! Your friend gave you 15% off.");
  await expect(widget).toContainText("Welcome! Your friend gave you 15% off.");
  await form.getByLabel("Promo text").fill("Welcome! Your friend gave you 10% off.");
  // Full size in a 390 px phone frame too.
  await preview.getByRole("group", { name: "Preview device" }).getByRole("button", { name: "Phone (390 px)" }).click();
  await expect.poll(async () => (await widget.boundingBox())!.width).toBe(390);
  await expect(widget).toContainText("Welcome! Your friend gave you 10% off.");

  // Leaving with unsaved changes asks first; staying keeps them.
  page.once("dialog", (dialog) => {
    expect(dialog.message()).toContain("unsaved changes");
    void dialog.dismiss();
  });
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Webhooks", exact: true }).click();
  await expect(form.getByLabel("Title")).toHaveValue("Invite a friend, both get 10%");
  await form.getByLabel("Title").fill("Give 10%, get 10%");

  await form.getByRole("button", { name: "Save campaign" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Saved: the whole campaign" })).toBeVisible();
  await expect(form.getByText(/must be a hex colour/)).toHaveCount(0);

  await page.reload();
  await expect(form.getByLabel("Theme colour", { exact: true })).toHaveValue("#0E7490");
  await expect(form.getByLabel("Title")).toHaveValue("Give 10%, get 10%");
  await expect(form.getByLabel("Component")).toHaveValue("drawer");
  await expect(form.getByLabel("Button type")).toHaveValue("edge");
  await expect(form.getByLabel("Button position")).toHaveValue("top-left");
  await expect(form.getByLabel("Tint opacity")).toHaveValue("0.7");
  await expect(form.getByLabel("Promo position")).toHaveValue("bottom-center");
  await expect(form.getByLabel("Attribution window (days)")).toHaveValue("14");
  await expect(form.getByLabel("Referee who arrived more than once")).toHaveValue("last");

  // The tab order follows the layout: the form's fields down to Save, then the preview beside them.
  await expect.poll(async () => (await preview.boundingBox())!.x).toBeGreaterThan((await form.getByLabel("Title").boundingBox())!.x);
  await form.getByLabel("Title").focus();
  await page.keyboard.press("Tab");
  await expect(form.getByLabel("Description")).toBeFocused();
  await form.getByRole("button", { name: "Save campaign" }).focus();
  await page.keyboard.press("Tab");
  await expect(preview.getByRole("group", { name: "Preview state" }).getByRole("button").first()).toBeFocused();

  // A form's own check (reward protection's, part of the campaign's one form) also puts focus on its first error, on every try.
  const rules = page.getByRole("form", { name: "Campaign" });
  await rules.getByLabel("Per UTC day").fill("0");
  for (let attempt = 0; attempt < 2; attempt++) {
    await rules.getByRole("button", { name: "Save campaign" }).click();
    await expect(rules.getByLabel("Per UTC day")).toBeFocused();
  }
  await expect(rules.getByLabel("Per UTC day")).toHaveAccessibleDescription("Per UTC day must be at least 1.");
  await rules.getByLabel("Per UTC day").fill("");

  // The setup panel: the npm package first, with this app's address and the key, then the hosted script's two lines, copied as shown.
  const setup = page.locator("section", { has: page.getByRole("heading", { name: "Install the widget" }) });
  const origin = new URL(page.url()).origin;
  const scriptTag = `<script src="${origin}/sdk/v1/referloop.js" data-key="${publishableKey}" async></script>`;
  const figures = setup.getByRole("figure");
  await expect(figures.first()).toHaveAccessibleName("1. Add the package to your site");
  await expect(setup.getByLabel("1. Add the package to your site")).toHaveText("npm install @referloop/js");
  await expect(setup.getByLabel("2. In your code")).toContainText(`init({ key: "${publishableKey}", apiBaseUrl: "${origin}" });`);
  await expect(setup.getByLabel("On every page, in the HTML")).toHaveText(scriptTag);
  await expect(setup.getByLabel("Once the user has signed in")).toHaveText('Referloop.identify({ userId: "USER_ID", userHash: "USER_HASH" });');
  // The userHash set-up beside it, and what the publishable key alone cannot do.
  await expect(setup.getByLabel("3. On your server, sign the user's id (USER_HASH)")).toContainText('createHmac("sha256", process.env.REFERLOOP_PROJECT_SECRET)');
  await expect(setup).toContainText("cannot change a user who already exists or bind them to a referral");
  await setup.getByRole("button", { name: "Copy script tag" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(scriptTag);

  // Saved: leaving asks nothing. Unsaved again: closing the tab asks the browser's own question.
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Webhooks", exact: true }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await page.goBack();
  await form.getByLabel("Title").fill("Changed, not saved");
  const beforeUnload = page.waitForEvent("dialog");
  await page.close({ runBeforeUnload: true });
  const dialog = await beforeUnload;
  expect(dialog.type()).toBe("beforeunload");
  await dialog.accept();
});
