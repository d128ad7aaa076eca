import { expect, test } from "@playwright/test";
import { PASSWORD as password, readSecret, uniqueEmail } from "./helpers";

test("foundation: account, projects, secrets, API keys, REST and the API reference", async ({ page, request }) => {
  const email = uniqueEmail();

  // Signed out, the app sends you to sign-in; sign up from there.
  await page.goto("/");
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Your name").fill("E2E Tester");
  await page.getByLabel("Organisation name").fill("Acme E2E");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Password must be at least 10 characters.")).toBeVisible();
  await page.getByLabel("Password").fill("Password123");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Password is one of the most common passwords: choose one that is harder to guess.")).toBeVisible();

  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
  await expect(page.getByLabel("Organisation", { exact: true })).toHaveValue(/.+/);
  await expect(page.getByText("No projects yet")).toBeVisible();

  // Create a Web project: its sk_ secret is shown once, with the warning.
  const createForm = page.getByRole("form", { name: "Create a project" });
  await createForm.getByLabel("Name", { exact: true }).fill("Shop");
  await createForm.getByLabel("Description").fill("The web shop");
  await createForm.getByLabel("Referral redirect link").fill("https://shop.example.com/join");
  await createForm.getByLabel("App type").selectOption("Web");
  await createForm.getByRole("button", { name: "Create project" }).click();

  const firstSecret = await readSecret(page, "Project secret");
  expect(firstSecret).toMatch(/^sk_[A-Za-z0-9_-]{20,}$/);
  await expect(page.getByRole("region", { name: "New project secret" }).getByText(/shown only once/)).toBeVisible();
  await expect(page.getByRole("table", { name: "Projects" }).getByRole("link", { name: "Shop" })).toBeVisible();

  // Open the project: the secret is not shown again, only its hint.
  await page.getByRole("link", { name: "Open Shop" }).click();
  await expect(page).toHaveURL(/\/dashboard\/projects\/[^/]+$/);
  const projectId = page.url().split("/").pop() ?? "";
  await expect(page.getByRole("heading", { name: "Shop", level: 1 })).toBeVisible();
  // A project opens on its overview; its settings are a tab.
  await expect(page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Settings" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText(projectId, { exact: true })).toBeVisible();
  await expect(page.getByRole("region", { name: "New project secret" })).toHaveCount(0);
  await expect(page.getByText(firstSecret.slice(0, 7) + "…").first()).toBeVisible();

  // A redirect link with a query string is refused with the server's reason; a clean one saves.
  const settings = page.getByRole("form", { name: "Project settings" });
  const redirectLink = settings.getByLabel("Referral redirect link");
  await expect(redirectLink).toHaveValue("https://shop.example.com/join");
  await redirectLink.fill("https://shop.example.com/join?ref=1");
  await settings.getByRole("button", { name: "Save changes" }).click();
  await expect(settings.getByText("Referral redirect link must not contain query parameters; the service appends its own.")).toBeVisible();
  await expect(redirectLink).toHaveAttribute("aria-invalid", "true");

  await redirectLink.fill("https://shop.example.com/invite");
  await settings.getByRole("button", { name: "Save changes" }).click();
  await expect(settings.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  await expect(settings.getByText(/must not contain query parameters/)).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole("form", { name: "Project settings" }).getByLabel("Referral redirect link")).toHaveValue("https://shop.example.com/invite");

  // Allowed origins: none yet, so no browser may use the widget; the settings say so and offer the
  // redirect link's origin. Identity verification switches on; the publishable key rotates.
  const note = settings.getByRole("note");
  await expect(note).toContainText("No browser origin is allowed");
  await note.getByRole("button", { name: "Add https://shop.example.com" }).click();
  await expect(settings.getByLabel("Allowed origins")).toHaveValue("https://shop.example.com");
  await expect(note).toHaveCount(0);
  await settings.getByLabel("Identity verification").check();
  await settings.getByRole("button", { name: "Save changes" }).click();
  await expect(settings.getByRole("status").filter({ hasText: "Saved." })).toBeVisible();
  const publishableKey = page.getByLabel("Publishable key", { exact: true });
  const firstKey = (await publishableKey.textContent()) ?? "";
  expect(firstKey).toMatch(/^pk_[\w-]{43}$/);
  await page.getByRole("button", { name: "Rotate publishable key" }).click();
  await page.getByRole("button", { name: "Rotate now" }).click();
  await expect(publishableKey).toHaveText(/^pk_[\w-]{43}$/);
  await expect(publishableKey).not.toHaveText(firstKey);
  await page.reload();
  await expect(page.getByRole("form", { name: "Project settings" }).getByLabel("Allowed origins")).toHaveValue("https://shop.example.com");
  await expect(page.getByRole("form", { name: "Project settings" }).getByLabel("Identity verification")).toBeChecked();

  // Rotate the secret: confirm, then the new secret is shown once.
  await page.getByRole("button", { name: "Rotate secret" }).click();
  await page.getByRole("button", { name: "Rotate now" }).click();
  const rotatedSecret = await readSecret(page, "Project secret");
  expect(rotatedSecret).toMatch(/^sk_/);
  expect(rotatedSecret).not.toBe(firstSecret);
  await expect(page.getByRole("region", { name: "New project secret" }).getByText(/shown only once/)).toBeVisible();

  // Create an API key: the full key is shown once, and the copy button copies exactly it.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API keys" }).click();
  await expect(page.getByRole("heading", { name: "API keys", level: 1 })).toBeVisible();
  await expect(page.getByText("Client ID", { exact: true })).toBeVisible();
  await page.getByLabel("Key name").fill("E2E backend");
  await page.getByRole("button", { name: "Create API key" }).click();
  const apiKey = await readSecret(page, "API key");
  expect(apiKey).toMatch(/^rl_/);
  await expect(page.getByRole("region", { name: "New API key" }).getByText(/shown only once/)).toBeVisible();
  await page.getByRole("button", { name: "Copy API key" }).click();
  await expect(page.getByRole("button", { name: "Copy API key" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(apiKey);
  const keyRow = page.getByRole("table", { name: "API keys" }).getByRole("row", { name: /E2E backend/ });
  await expect(keyRow).toContainText(apiKey.slice(0, 7));
  await expect(keyRow).not.toContainText(apiKey);

  // The key works against the REST API and sees the project.
  const res = await request.get("/api/v1/public/projects", { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(res.status()).toBe(200);
  const projects = (await res.json()) as { uniqueId: string; name: string; referralRedirectLink: string | null }[];
  expect(projects).toContainEqual(
    expect.objectContaining({ uniqueId: projectId, name: "Shop", referralRedirectLink: "https://shop.example.com/invite" }),
  );
  expect((await request.get("/api/v1/public/projects")).status()).toBe(401);

  // The API reference renders the projects operations from the OpenAPI document, one at a time.
  await page.getByRole("navigation", { name: "Dashboard" }).getByRole("link", { name: "API reference" }).click();
  const index = page.getByRole("navigation", { name: "API reference contents" });
  await index.getByRole("link", { name: /^POST Create a project$/ }).click();
  const createOp = page.getByRole("region", { name: "POST /public/projects", exact: true });
  await expect(createOp).toBeVisible();
  await expect(createOp.getByText("Create a project", { exact: true })).toBeVisible();
  await expect(createOp.getByText("201", { exact: true })).toBeVisible();
  await expect(createOp.getByText("Authorization: Bearer <token>")).toBeVisible();
  await expect(createOp.getByText("referralRedirectLink", { exact: true }).first()).toBeVisible();
  // A response's schema is drawn when it is opened.
  const created = createOp.locator("li", { has: page.getByText("201", { exact: true }) });
  await expect(created.getByText("uniqueId", { exact: true })).toHaveCount(0);
  await created.getByText("application/json · ProjectCreatedDto").click();
  await expect(created.getByText("uniqueId", { exact: true })).toBeVisible();
  // Another operation replaces it.
  await index.getByRole("link", { name: /^DELETE Delete a project and all its data$/ }).click();
  await expect(page.getByRole("region", { name: "DELETE /public/projects/{projectId}", exact: true })).toBeVisible();
  await expect(createOp).toHaveCount(0);

  // Sign out: back to sign-in, and the dashboard is closed.
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page).toHaveURL(/\/sign-in$/);
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/sign-in/);

  // Sign in again: a wrong password is refused, the right one opens the dashboard.
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill("wrong password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByText("Wrong e-mail or password.")).toBeVisible();
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole("table", { name: "Projects" }).getByRole("link", { name: "Shop" })).toBeVisible();
});
