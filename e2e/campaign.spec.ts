import { expect, test } from "@playwright/test";
import { createProject, openProjectTab, signUp } from "./helpers";

test("campaign: edit both experiences, live preview, per-field server errors, saved values survive a reload", async ({ page }) => {
  await signUp(page);
  const projectId = await createProject(page, { name: "Campaign shop" });
  await openProjectTab(page, projectId, "Campaign");
  const form = page.getByRole("form", { name: "Campaign" });
  const preview = page.getByRole("complementary", { name: "Preview" });

  // Defaults from the server.
  await expect(form.getByLabel("Button type")).toHaveValue("floating");
  await expect(form.getByLabel("Theme colour", { exact: true })).toHaveValue("#4F46E5");
  await expect(preview).toContainText("Invite friends");
  await expect(preview).toContainText("No promo text");

  // Invalid values are refused by the server, each under its own field.
  await form.getByLabel("Theme colour", { exact: true }).fill("#12");
  await form.getByLabel("Title").fill("x".repeat(201));
  await expect(form.getByText("201 / 200 characters")).toBeVisible();
  await form.getByRole("button", { name: "Save campaign" }).click();
  await expect(form.getByText("Theme colour must be a hex colour #RRGGBB.")).toBeVisible();
  await expect(form.getByLabel("Theme colour", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await expect(form.getByLabel("Title")).toHaveAttribute("aria-invalid", "true");

  // Valid values save; the preview follows the form before saving.
  await form.getByLabel("Theme colour", { exact: true }).fill("#0E7490");
  await form.getByLabel("Title").fill("Give 10%, get 10%");
  await form.getByLabel("Component").selectOption("drawer");
  await form.getByLabel("Button type").selectOption("edge");
  await form.getByLabel("Button position").selectOption("top-left");
  await form.getByLabel("Tint opacity").fill("0.7");
  await form.getByLabel("Promo text").fill("Welcome! Your friend gave you 10% off.");
  await form.getByLabel("Promo position").selectOption("bottom-center");
  await form.getByLabel("Attribution window (days)").fill("14");
  await expect(preview).toContainText("Give 10%, get 10%");
  await expect(preview).toContainText("Welcome! Your friend gave you 10% off.");
  await expect(preview).toContainText("sharing drawer");
  await form.getByRole("button", { name: "Save campaign" }).click();
  await expect(form.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
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
});
