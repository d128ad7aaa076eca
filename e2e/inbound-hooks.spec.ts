import { expect, test } from "@playwright/test";
import Stripe from "stripe";
import { createApiKey, createProject, openProjectTab, restClient, signUp, type TrackResponse } from "./helpers";

const STRIPE_SECRET = "whsec_e2e_inbound_0123456789abcdef";
const RC_AUTH = "Bearer e2e-revenuecat-0123456789";

test("inbound hooks: set up Stripe and RevenueCat in the project's settings, a signed Stripe event rewards the referee, token rotation", async ({ page, request, baseURL }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const projectId = await createProject(page, { name: "Paying shop" });
  const apiKey = await createApiKey(page);
  const api = restClient(request, apiKey, projectId);

  await page.goto(`/dashboard/projects/${projectId}/settings`);
  const card = page.locator("section", { has: page.getByRole("heading", { name: "Inbound conversions" }) });
  await expect(card.getByText("Stripe not set up")).toBeVisible();
  await expect(card.getByText("RevenueCat not set up")).toBeVisible();
  const token = (await card.getByLabel("Hook token", { exact: true }).textContent())!;
  expect(token).toMatch(/^ih_[A-Za-z0-9_-]{43}$/);
  const stripeUrl = `${baseURL}/api/v1/hooks/${token}/stripe`;
  await expect(card.getByLabel("Stripe URL", { exact: true })).toHaveText(stripeUrl);
  await expect(card.getByLabel("RevenueCat URL", { exact: true })).toHaveText(`${baseURL}/api/v1/hooks/${token}/revenuecat`);
  await card.getByRole("button", { name: "Copy Stripe URL" }).click();
  await expect(card.getByRole("button", { name: "Copy Stripe URL" })).toHaveText("Copied");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(stripeUrl);

  // Not configured: the hook answers as if it did not exist.
  expect((await request.post(stripeUrl, { data: "{}" })).status()).toBe(404);

  // A Stripe secret that is not one is refused, naming the field.
  const form = card.getByRole("form", { name: "Inbound hook settings" });
  // The inputs, not their Remove buttons (labelled "Remove <field>").
  const stripeSecret = form.getByRole("textbox", { name: /^Stripe signing secret/ });
  const revenueCatAuth = form.getByRole("textbox", { name: /^RevenueCat Authorization/ });
  await stripeSecret.fill("sk_live_not_a_signing_secret");
  await form.getByRole("button", { name: "Save inbound hooks" }).click();
  await expect(form.getByText(/whsec_/).first()).toBeVisible();

  await stripeSecret.fill(STRIPE_SECRET);
  await revenueCatAuth.fill(RC_AUTH);
  await form.getByRole("button", { name: "Add event type" }).click();
  await form.getByLabel("Event type 1 name").fill("invoice.paid");
  await form.getByLabel("Event type 1 value").fill("purchase");
  await form.getByRole("button", { name: "Save inbound hooks" }).click();
  await expect(card.getByText("Saved.")).toBeVisible();
  await expect(card.getByText("Stripe configured")).toBeVisible();
  await expect(card.getByText("RevenueCat configured")).toBeVisible();

  // The secrets are never shown back, not even after a reload.
  await page.reload();
  await expect(stripeSecret).toHaveValue("");
  await expect(stripeSecret).toHaveAttribute("placeholder", /Configured/);
  await expect(revenueCatAuth).toHaveValue("");
  await expect(form.getByLabel("Event type 1 name")).toHaveValue("invoice.paid");
  expect(await page.content()).not.toContain(STRIPE_SECRET);
  expect(await page.content()).not.toContain(RC_AUTH);

  // A referee with a pending referral pays: Stripe's signed invoice.paid completes the referral as "purchase".
  await api.post("/users", { ClientProvidedId: "alice" }, 201);
  const link = await api.post<{ referralLink: string }>("/referrals/link", { ReferrerId: "alice" });
  const code = new URL(link.referralLink).searchParams.get("referralCode");
  const { referralTrackingId } = await api.post<TrackResponse>("/referrals/track", { ReferralCode: code, RefereeId: "bob" });
  const payload = JSON.stringify({
    id: "evt_e2e_invoice_paid",
    object: "event",
    type: "invoice.paid",
    livemode: false,
    data: { object: { id: "in_e2e", object: "invoice", billing_reason: "subscription_create", amount_paid: 900, metadata: { referloop_user_id: "bob" } } },
  });
  const signature = new Stripe("sk_test_unused").webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET });
  const sent = await request.post(stripeUrl, { data: payload, headers: { "content-type": "application/json", "stripe-signature": signature } });
  expect(sent.status(), await sent.text()).toBe(200);
  expect(await sent.json()).toEqual({ received: true, outcome: "rewarded" });
  const detail = await api.get<{ referral: { status: string }; rewardEvents: { eventName: string; environment: string; outcome: string }[] }>(`/referrals/${referralTrackingId}`);
  expect(detail.referral.status).toBe("Completed");
  expect(detail.rewardEvents).toEqual([expect.objectContaining({ eventName: "purchase", environment: "Sandbox", outcome: "Claimed" })]);

  // The inbound events list shows it, and filters.
  await openProjectTab(page, projectId, "Inbound events");
  const table = page.getByRole("table", { name: "Inbound events" });
  const row = table.getByRole("row", { name: /evt_e2e_invoice_paid/ });
  await expect(row).toContainText("Stripe");
  await expect(row).toContainText("rewarded");
  await expect(row).toContainText("bob");
  await expect(row).toContainText("purchase");
  await expect(row).toContainText("Sandbox");
  const filters = page.getByRole("search", { name: "Filter inbound events" });
  await filters.getByLabel("Outcome").selectOption("ignored");
  await expect(table).toContainText("No inbound events match");
  await filters.getByLabel("Outcome").selectOption("");
  await filters.getByLabel("Search").fill("bob");
  await expect(table.getByRole("row", { name: /evt_e2e_invoice_paid/ })).toBeVisible();

  // Rotating the token changes both URLs; the old one answers 404 at once.
  await page.goto(`/dashboard/projects/${projectId}/settings`);
  await card.getByRole("button", { name: "Rotate hook token" }).click();
  await card.getByRole("button", { name: "Rotate now" }).click();
  await expect(card.getByText("New token issued")).toBeVisible();
  await expect(card.getByLabel("Hook token", { exact: true })).not.toHaveText(token);
  const rotated = (await card.getByLabel("Hook token", { exact: true }).textContent())!;
  await expect(card.getByLabel("Stripe URL", { exact: true })).toHaveText(`${baseURL}/api/v1/hooks/${rotated}/stripe`);
  expect((await request.post(stripeUrl, { data: payload, headers: { "stripe-signature": signature } })).status()).toBe(404);

  // Removing RevenueCat turns its hook off.
  await form.getByRole("button", { name: "Remove RevenueCat Authorization" }).click();
  await expect(card.getByText("RevenueCat not set up")).toBeVisible();
  const rc = await request.post(`${baseURL}/api/v1/hooks/${rotated}/revenuecat`, { data: "{}", headers: { authorization: RC_AUTH } });
  expect(rc.status()).toBe(404);
});
