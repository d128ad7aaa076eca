import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { Webhook } from "standardwebhooks";
import { axe, createApiKey, fitsWidth, openProjectTab, readSecret, restClient, signUp } from "./helpers";

/*
 * Issue 38 walked as an integrator, the developer wiring the API: the API reference's index and one
 * operation's curl sample (item 10), a webhook with chosen events and `autoRecover` (item 6), rotations
 * with an overlap (the webhook's secret, the sk_ project secret, an API key; item 7) checked over HTTP
 * while both credentials hold, and the users' search by e-mail over REST (item 4). Each colour scheme
 * walks once, acting at one width and then visiting every page at the other (light acts at 1440x900,
 * dark on a phone), so both widths and both schemes are covered by two walks rather than four. axe on
 * each page (no serious or critical violation), no console error.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };


/** A receiver that records each delivery and answers 200. */
async function receiver() {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server: Server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { "Content-Type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/referloop`, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** A backend's call with the project secret, as a server makes it (no Origin). */
async function initAppUser(baseURL: string, projectSecret: string, userId: string): Promise<number> {
  const res = await fetch(`${baseURL}/api/v1/sdk/init-app-user`, {
    method: "POST",
    headers: { "X-Service-ProjectSecret": projectSecret, "Content-Type": "application/json" },
    body: JSON.stringify({ userId }),
  });
  return res.status;
}

/** The public REST API called with a given API key. */
async function getProject(baseURL: string, apiKey: string, projectId: string): Promise<number> {
  return (await fetch(`${baseURL}/api/v1/public/projects/${projectId}`, { headers: { Authorization: `Bearer ${apiKey}` } })).status;
}

for (const [colorScheme, acting, visiting] of [
  ["light", DESKTOP, PHONE],
  ["dark", PHONE, DESKTOP],
] as const) {
  const widths = `acting at ${acting.width} px, visiting at ${visiting.width} px`;
  test(`integrator, ${colorScheme}, ${widths}: the API reference, a webhook with autoRecover, rotations with an overlap, search by e-mail`, async ({ browser, baseURL }) => {
    test.setTimeout(180_000);
    const hooks = await receiver();
    const context = await browser.newContext({ viewport: acting, colorScheme });
    try {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
      const app = baseURL!;

      // A developer's account, an API key from the dashboard, the project created over REST with it
      // (its answer carries the sk_ secret, shown once).
      await signUp(page, { organization: "Integrator Co" });
      const firstKey = await createApiKey(page, "Backend");
      const created = await fetch(`${app}/api/v1/public/projects`, {
        method: "POST",
        headers: { Authorization: `Bearer ${firstKey}`, "Content-Type": "application/json" },
        body: JSON.stringify({ name: "Integration shop", referralRedirectLink: "https://shop.example.com/join" }),
      });
      expect(created.status, await created.clone().text()).toBe(201);
      const { uniqueId: projectId, projectSecret: firstSecret } = (await created.json()) as { uniqueId: string; projectSecret: string };
      expect(firstSecret).toMatch(/^sk_/);

      // Item 10: the operation index, searched; one operation with its curl sample (the single deny's
      // optional reason in it).
      await page.goto("/dashboard/api-reference");
      if (colorScheme === "dark") await expect(page.locator("html")).toHaveClass(/\bdark\b/);
      const index = page.getByRole("navigation", { name: "API reference contents" });
      const search = index.getByRole("searchbox", { name: "Search operations" });
      await expect(page.getByRole("heading", { name: "Referloop API", level: 2 })).toBeVisible();
      await axe(page, "API reference");
      await search.fill("reviews /deny");
      await expect(index.getByRole("status")).toHaveText("1 operation match");
      await index.getByRole("link", { name: /Deny a held reward/ }).click();
      await expect(page.getByRole("region", { name: "POST /public/projects/{projectId}/reviews/{trackingId}/deny", exact: true })).toBeVisible();
      const curl = page.getByLabel("Request (curl)", { exact: true });
      await expect(curl).toContainText(new RegExp(`^curl -X POST '${app}/api/v1/public/projects/[0-9a-f-]{36}/reviews/[0-9a-f-]{36}/deny'`));
      await expect(curl).toContainText('-H "Authorization: Bearer $REFERLOOP_API_KEY"');
      await expect(curl).toContainText('"note": "Same household; the referee never signed in"');
      await expect(page.getByLabel(/^Answer 200/)).toContainText('"denied_in_review"');
      await axe(page, "API reference, an operation");

      // Item 6: a webhook created in the dashboard with its events chosen and recovery after an outage on.
      await openProjectTab(page, projectId, "Webhooks");
      const form = page.getByRole("form", { name: "New webhook" });
      await form.getByLabel("Name").fill("Orders backend");
      await form.getByLabel("URL").fill(hooks.url);
      await form.getByRole("checkbox", { name: /^reward\.revoked/ }).check();
      await form.getByRole("checkbox", { name: /^referral\.tracked/ }).check();
      await form.getByRole("checkbox", { name: /^Resend what failed while the endpoint was down/ }).check();
      await axe(page, "webhooks, new");
      await form.getByRole("button", { name: "Create webhook" }).click();
      const firstHookSecret = await readSecret(page, "Webhook secret");
      expect(firstHookSecret).toMatch(/^whsec_/);
      await page.getByRole("region", { name: "New webhook secret" }).getByRole("button", { name: "I have stored it" }).click();
      const api = restClient(page.request, firstKey, projectId);
      const [webhook] = await api.get<{ id: string; events: string[]; autoRecover: boolean }[]>("/webhooks");
      expect(webhook).toMatchObject({ autoRecover: true });
      expect([...webhook!.events].sort()).toEqual(["referral.tracked", "reward.granted", "reward.revoked"]);

      // Item 7: the webhook's secret rotated with a 24 h overlap; the new one is shown once.
      await page.getByRole("button", { name: "Edit Orders backend" }).click();
      const rotation = page.getByRole("region", { name: "Rotate the secret" });
      await rotation.getByLabel(/^Keep the current secret working for/).selectOption({ label: "24 hours" });
      await rotation.getByRole("button", { name: "Rotate secret" }).click();
      await expect(rotation).toContainText("The current secret stops working in 24 hours. Rotate?");
      await rotation.getByRole("button", { name: "Rotate now" }).click();
      const hookSecret = await readSecret(page, "Webhook secret of Orders backend");
      expect(hookSecret).toMatch(/^whsec_/);
      expect(hookSecret).not.toBe(firstHookSecret);
      await expect(rotation).toContainText("each delivery is signed with both secrets");
      await axe(page, "webhooks, rotated");
      // A test event during the overlap verifies with either secret (Standard Webhooks, two signatures).
      await page.getByRole("link", { name: "Deliveries of Orders backend" }).click();
      await page.getByRole("button", { name: "Send test event" }).click();
      await expect(page.getByRole("status").filter({ hasText: /^Test event delivered: HTTP 200/ })).toBeVisible();
      const delivery = hooks.received.at(-1)!;
      const signed = { "webhook-id": String(delivery.headers["webhook-id"]), "webhook-timestamp": String(delivery.headers["webhook-timestamp"]), "webhook-signature": String(delivery.headers["webhook-signature"]) };
      expect(signed["webhook-signature"].split(" ")).toHaveLength(2);
      for (const secret of [hookSecret, firstHookSecret]) expect(() => new Webhook(secret).verify(delivery.body, signed)).not.toThrow();
      await axe(page, "a webhook's deliveries");
      // Shown once: back on the list, only the new secret's hint.
      await openProjectTab(page, projectId, "Webhooks");
      await expect(page.getByRole("table", { name: "Webhooks" })).toContainText(`****${hookSecret.slice(-4)}`);
      await expect(page.getByText(hookSecret)).toHaveCount(0);

      // Item 7: the sk_ secret rotated with an overlap; both secrets authenticate meanwhile.
      await openProjectTab(page, projectId, "Settings");
      await page.getByLabel(/^Keep the current secret working for/).selectOption({ label: "1 hour" });
      await page.getByRole("button", { name: "Rotate secret" }).click();
      await page.getByRole("button", { name: "Rotate now" }).click();
      const secret = await readSecret(page, "Project secret");
      expect(secret).toMatch(/^sk_/);
      expect(secret).not.toBe(firstSecret);
      await expect(page.getByText(/^The previous secret keeps working until/)).toBeVisible();
      await axe(page, "settings, rotated");
      expect(await initAppUser(app, firstSecret, "during-overlap-old")).toBe(200);
      expect(await initAppUser(app, secret, "during-overlap-new")).toBe(200);
      expect(await initAppUser(app, `${secret.slice(0, -4)}zzzz`, "forged")).toBe(401);

      // Item 7: the API key rolled; the old key keeps working for a day beside the new one.
      await page.goto("/dashboard/api-keys");
      await page.getByRole("button", { name: "Roll API key Backend" }).click();
      await page.getByRole("button", { name: "Roll key" }).click();
      const key = await readSecret(page, "API key");
      expect(key).toMatch(/^rl_/);
      expect(key).not.toBe(firstKey);
      await expect(page.getByText(/^The previous key of Backend keeps working until/)).toBeVisible();
      await axe(page, "API keys, rolled");
      expect(await getProject(app, firstKey, projectId)).toBe(200);
      expect(await getProject(app, key, projectId)).toBe(200);

      // Item 4: users found by what people know, their e-mail: a prefix in any case, over REST.
      const users = restClient(page.request, key, projectId);
      await users.post("/users", { clientProvidedId: "u-1001", attributes: { email: "Ada.Lovelace@example.com", name: "Ada" } }, 201);
      await users.post("/users", { clientProvidedId: "u-1002", attributes: { email: "grace@example.com", name: "Grace" } }, 201);
      const found = await users.get<{ items: { clientProvidedId: string }[]; totalCount: number }>(`/users?search=${encodeURIComponent("ADA.LOVE")}`);
      expect(found).toMatchObject({ totalCount: 1, items: [{ clientProvidedId: "u-1001" }] });
      expect((await users.get<{ totalCount: number }>("/users?search=nobody%40example.com")).totalCount).toBe(0);

      // At the other width the same pages fit, the index is there, the row actions in reach.
      await page.setViewportSize(visiting);
      await page.goto("/dashboard/api-reference");
      await search.fill("list app users");
      await index.getByRole("link", { name: /List app users/ }).click();
      await expect(page.getByRole("region", { name: "GET /public/projects/{projectId}/users", exact: true })).toContainText("search");
      await fitsWidth(page, "an operation");
      await axe(page, `an operation at ${visiting.width} px`);
      for (const [path, action] of [
        [`/dashboard/projects/${projectId}/webhooks`, page.getByRole("button", { name: "Edit Orders backend" })],
        [`/dashboard/projects/${projectId}/settings`, page.getByRole("button", { name: "Rotate secret" })],
        // Two keys named Backend while the old one still works: the new one's row.
        ["/dashboard/api-keys", page.getByRole("row", { name: new RegExp(key.slice(0, 7)) }).getByRole("button", { name: "Roll API key Backend" })],
      ] as const) {
        await page.goto(path);
        await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
        await expect(page.getByText(/^Loading/)).toHaveCount(0);
        await expect(action).toBeVisible();
        const box = (await action.boundingBox())!;
        expect(box.x + box.width, `${path}: the row's action ends inside the screen at ${visiting.width} px`).toBeLessThanOrEqual(visiting.width);
        await fitsWidth(page, path);
        await axe(page, `${path} at ${visiting.width} px`);
      }
      expect(errors).toEqual([]);
    } finally {
      await context.close();
      await hooks.close();
    }
  });
}
