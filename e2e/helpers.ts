import AxeBuilder from "@axe-core/playwright";
import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Shared steps of the end-to-end walks. Each test signs up its own account, so tests never share data. */

export const PASSWORD = "correct horse battery";

export const uniqueEmail = (prefix = "e2e") => `${prefix}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;

/** Signs up a fresh account with its own organisation; ends on the projects page. */
export async function signUp(page: Page, { email = uniqueEmail(), organization = "Acme E2E" } = {}): Promise<string> {
  await page.goto("/sign-up");
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByLabel("Your name").fill("E2E Tester");
  await page.getByLabel("Organisation name").fill(organization);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return email;
}

/** The value of a one-time secret panel's field ("Project secret", "API key", "Webhook secret"). */
export async function readSecret(page: Page, label: string): Promise<string> {
  const field = page.getByLabel(label, { exact: true });
  await expect(field).toBeVisible();
  return field.inputValue();
}

/** Creates a Web project from the projects page and opens it; returns its uniqueId. */
export async function createProject(page: Page, { name = "Shop", redirectLink = "https://shop.example.com/join" } = {}): Promise<string> {
  await page.goto("/dashboard");
  const form = page.getByRole("form", { name: "Create a project" });
  await form.getByLabel("Name", { exact: true }).fill(name);
  await form.getByLabel("Referral redirect link").fill(redirectLink);
  await form.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByLabel("Project secret", { exact: true })).toBeVisible();
  await page.getByRole("link", { name: `Open ${name}` }).click();
  await expect(page).toHaveURL(/\/dashboard\/projects\/[^/]+$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
  const projectId = new URL(page.url()).pathname.split("/").pop() ?? "";
  // It opens on its overview; the callers go on from its settings.
  await openProjectTab(page, projectId, "Settings");
  return projectId;
}

/** Creates an API key in the dashboard (an owner key unless `role` says otherwise) and returns the full key (shown once). */
export async function createApiKey(page: Page, name = "E2E backend", role: "owner" | "member" | "readOnly" = "owner"): Promise<string> {
  await page.goto("/dashboard/api-keys");
  await page.getByLabel("Key name").fill(name);
  await page.getByLabel("Key role").selectOption(role);
  await page.getByRole("button", { name: "Create API key" }).click();
  const key = await readSecret(page, "API key");
  expect(key).toMatch(/^rl_/);
  return key;
}

/** Opens a section of the project page through its tab. */
export async function openProjectTab(page: Page, projectId: string, tab: string): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith(`/dashboard/projects/${projectId}`)) await page.goto(`/dashboard/projects/${projectId}`);
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: tab, exact: true }).click();
  await expect(page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: tab, exact: true })).toHaveAttribute(
    "aria-current",
    "page",
  );
}

/** The public REST API as a backend calls it: Bearer API key, JSON in and out, status checked. */
export function restClient(request: APIRequestContext, apiKey: string, projectId: string) {
  const base = `/api/v1/public/projects/${projectId}`;
  const headers = { Authorization: `Bearer ${apiKey}` };
  return {
    async post<T>(path: string, data: unknown, expectedStatus = 200): Promise<T> {
      const res = await request.post(`${base}${path}`, { headers, data });
      expect(res.status(), `POST ${path}: ${await res.text()}`).toBe(expectedStatus);
      return (await res.json()) as T;
    },
    async get<T>(path: string): Promise<T> {
      const res = await request.get(`${base}${path}`, { headers });
      expect(res.status(), `GET ${path}: ${await res.text()}`).toBe(200);
      return (await res.json()) as T;
    },
  };
}

export type TrackResponse = { referralTrackingId: string; status: string };
export type RewardResponse = { rewardClaimed: boolean; status: string; reason?: string };

/**
 * Opens the link of the newest e-mail to `to` whose subject matches, from the development mailbox
 * (/dev/mail: the e2e server writes e-mail to its data folder), and returns the link.
 */
export async function followMailLink(page: Page, to: string, subject: RegExp): Promise<string> {
  await page.goto("/dev/mail");
  const message = page.getByRole("article", { name: subject }).filter({ hasText: `To ${to}` }).first();
  await expect(message).toBeVisible();
  const link = await message.getByRole("link").first().getAttribute("href");
  expect(link).toBeTruthy();
  await page.goto(link!);
  return link!;
}

/** Follows the verification e-mail of `email` in `page` (signed in or not) and verifies the address. */
export async function verifyEmail(page: Page, email: string): Promise<void> {
  await followMailLink(page, email, /^Verify your e-mail address$/);
  await page.getByRole("button", { name: "Verify my e-mail address" }).click();
  await expect(page.getByText(`${email} is verified.`)).toBeVisible();
}

/**
 * The owner in `ownerPage` invites `email` with `role`; `page` (a separate browser context) signs up
 * from the invitation link, which joins the owner's organisation (no organisation of its own, the
 * address verified by the link). Ends on the dashboard of the owner's organisation; returns the
 * invitation link.
 */
export async function inviteAndJoin(ownerPage: Page, page: Page, email: string, role: "Owner" | "Member" | "Viewer"): Promise<string> {
  await ownerPage.goto("/dashboard/organization");
  const form = ownerPage.getByRole("form", { name: "Invite a member" });
  await form.getByLabel("E-mail address").fill(email);
  await form.getByLabel("Role").selectOption({ label: role });
  await form.getByRole("button", { name: "Send invitation" }).click();
  await expect(ownerPage.getByText(`Invitation sent to ${email}.`)).toBeVisible();

  const invitation = await followMailLink(page, email, /invited you to/);
  await expect(page.getByRole("heading", { name: /^Join / })).toBeVisible();
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page.getByRole("heading", { name: /^Join / })).toBeVisible();
  await expect(page.getByLabel("E-mail")).toHaveValue(email);
  await expect(page.getByLabel("Organisation name")).toHaveCount(0);
  await page.getByLabel("Password").fill(PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return invitation;
}

/** Collects CSP violations as the browser reports them: the DOM event and the console message. */
export async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportCspViolation", (text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      (window as unknown as { reportCspViolation(t: string): void }).reportCspViolation(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  return violations;
}

/** axe on the page once it has loaded: no serious or critical violation (`what` names the page in a failure). */
export async function axe(page: Page, what: string) {
  await expect(page.getByText(/^Loading/)).toHaveCount(0);
  const results = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).setLegacyMode().analyze();
  const blocking = results.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  expect(blocking.map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([]);
}

/** Nothing on the page scrolls sideways. */
export async function fitsWidth(page: Page, what: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${what} scrolls sideways by ${overflow} px`).toBeLessThanOrEqual(0);
}
