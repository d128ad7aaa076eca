import { expect, test, type Page } from "@playwright/test";
import { createProjectWithSecret, startOkReceiver } from "./dashboard-pages";
import { createApiKey, restClient, signUp, type TrackResponse } from "./helpers";

/** The checklist on the organisation's home page, and one of its steps by title. */
const checklist = (page: Page) => page.getByRole("region", { name: /referral programme/ });
const step = (page: Page, title: string) => checklist(page).getByRole("listitem").filter({ hasText: title });

async function expectProgress(page: Page, done: number) {
  await page.goto("/dashboard");
  await expect(checklist(page).getByText(`${done} of 6 steps done`)).toBeVisible();
}

test("the checklist ticks itself as a Web project goes live, each open step linking to where it is done", async ({ page, request }) => {
  test.setTimeout(120_000);
  const receiver = await startOkReceiver();
  try {
    await signUp(page, { organization: "Live Co" });
    // A new organisation opens on the checklist, the first step pointing at the project form.
    await expect(checklist(page).getByRole("heading", { name: "Get your referral programme live" })).toBeVisible();
    await expect(checklist(page).getByText("0 of 6 steps done")).toBeVisible();
    await expect(step(page, "Create a project")).toContainText("(to do)");
    await step(page, "Create a project").getByRole("link", { name: "Create a project" }).click();
    await expect(page.getByRole("form", { name: "Create a project" }).getByLabel("Name", { exact: true })).toBeVisible();

    const { projectId, secret } = await createProjectWithSecret(page, { name: "Live shop" });
    expect(secret).toMatch(/^sk_/);
    await expectProgress(page, 1);
    await expect(step(page, "Create a project")).toContainText("(done)");

    // The redirect link, set where the step's link leads.
    await step(page, "Set the referral redirect link").getByRole("link", { name: "Open the project's settings" }).click();
    await expect(page).toHaveURL(new RegExp(`/dashboard/projects/${projectId}/settings$`));
    await page.getByLabel("Referral redirect link").fill("https://shop.example.com/join");
    await page.getByRole("button", { name: "Save changes" }).click();
    await expect(page.getByText("Saved.")).toBeVisible();
    await expectProgress(page, 2);

    // The widget: the step names the package first, then the hosted script, and leads to the set-up; it ticks on the project key's first client-library call.
    await expect(step(page, "Install the widget")).toContainText("Add @referloop/js to your site (or, without a bundler, the hosted script tag)");
    await step(page, "Install the widget").getByRole("link", { name: "See how to add it" }).click();
    await expect(page.getByRole("heading", { name: "Install the widget" })).toBeVisible();
    const apiKey = await createApiKey(page);
    const api = restClient(request, apiKey, projectId);
    const { publishableKey } = await api.get<{ publishableKey: string }>("");
    const init = await request.post("/api/v1/sdk/init-app-user", { headers: { "X-Service-ProjectSecret": publishableKey }, data: { userId: "alice" } });
    expect(init.status(), await init.text()).toBe(200);
    await expectProgress(page, 3);
    await expect(step(page, "Install the widget")).toContainText("(done)");

    // The first referral, then a webhook to a receiver on 127.0.0.1 and a reward: delivered, so all six.
    const alice = await api.get<{ referralCode: string }>("/users/by-user-id/alice");
    const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: alice.referralCode, refereeId: "bob" });
    await expectProgress(page, 4);
    const { campaignId } = await api.get<{ campaignId: string }>("");
    await api.post(`/webhooks/${campaignId}`, { name: "Receiver", url: receiver.url }, 201);
    await api.post("/referrals/reward", { referralTrackingId: tracked.referralTrackingId, eventName: "first_purchase" });
    await expect.poll(() => receiver.received(), { timeout: 20_000 }).toBe(1);
    await page.goto("/dashboard");
    await expect(checklist(page).getByRole("heading", { name: "Your referral programme is live" })).toBeVisible();
    await expect(checklist(page).getByText("6 of 6 steps done")).toBeVisible();
  } finally {
    await receiver.close();
  }
});

test("a Mobile project's checklist and campaign page show the mobile set-up, not the widget's", async ({ page }) => {
  await signUp(page, { organization: "Mobile Co" });
  await page.goto("/dashboard");
  const form = page.getByRole("form", { name: "Create a project" });
  await form.getByLabel("Name", { exact: true }).fill("Mobile app");
  await form.getByLabel("App type").selectOption("Mobile");
  await form.getByRole("button", { name: "Create project" }).click();
  await expect(page.getByLabel("Project secret", { exact: true })).toBeVisible();
  await page.goto("/dashboard");
  await expect(step(page, "Install the mobile client")).toBeVisible();
  await expect(step(page, "Install the widget")).toHaveCount(0);
  await page.getByRole("table", { name: "Projects" }).getByRole("link", { name: "Mobile app", exact: true }).click();
  // No web-only warning in the settings.
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Settings", exact: true }).click();
  await expect(page.getByLabel("Allowed origins")).toBeVisible();
  await expect(page.getByText("the web widget cannot work")).toHaveCount(0);
  await page.getByRole("navigation", { name: "Project sections" }).getByRole("link", { name: "Campaign", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Install the mobile client" })).toBeVisible();
  await expect(page.getByLabel("1. Add the package to your app")).toHaveText("npm install @referloop/react-native");
  await expect(page.getByLabel("2. Create the client once, at app start")).toContainText('import { createReferloopMobile } from "@referloop/react-native";');
  await expect(page.getByRole("heading", { name: "Install the widget" })).toHaveCount(0);
});
