import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Browser, type Page } from "@playwright/test";
import { axe, createApiKey, createProject, fitsWidth, openProjectTab, restClient, signUp, type RewardResponse, type TrackResponse } from "./helpers";

/*
 * Issue 38 walked as the people who run a program: a program manager (campaign, overview, leaderboard,
 * the review queue's bulk decisions) and a support agent (a denial with its reason, the history, the
 * deliveries table, dismissing guidance), at 1440x900 and a phone's width, in light and dark, with axe
 * on each page visited (no serious or critical violation).
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

/** A receiver that answers 500: the delivery is retried, then fails and waits for a manual retry. */
async function failingReceiver() {
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/gone`, close: () => new Promise<void>((r) => server.close(() => r())) };
}


/** The element lies inside the viewport's width. */
async function inView(page: Page, locator: ReturnType<Page["locator"]>, what: string) {
  const box = (await locator.boundingBox())!;
  const width = page.viewportSize()!.width;
  expect(box, `${what} is drawn`).not.toBeNull();
  expect(box.x, `${what} starts inside the screen`).toBeGreaterThanOrEqual(0);
  expect(box.x + box.width, `${what} ends inside the screen (${width} px)`).toBeLessThanOrEqual(width);
}

type Seed = { projectId: string; apiKey: string; state: Awaited<ReturnType<ReturnType<Page["context"]>["storageState"]>> };

/** A manager's project: reward protection holding disposable addresses, a cap of one reward per referrer. */
async function seed(browser: Browser): Promise<Seed> {
  const context = await browser.newContext({ viewport: DESKTOP });
  const page = await context.newPage();
  await signUp(page, { organization: "Program Co" });
  const projectId = await createProject(page, { name: "Program shop" });
  const apiKey = await createApiKey(page);
  const state = await context.storageState();
  await context.close();
  return { projectId, apiKey, state };
}

async function heldReferrals(api: ReturnType<typeof restClient>, referrer: string, referees: string[]) {
  const user = await api.post<{ referralCode: string }>("/users", { clientProvidedId: referrer }, 201);
  const held: string[] = [];
  for (const name of referees) {
    await api.post("/users", { clientProvidedId: name, attributes: { email: `${name}@mailinator.com` } }, 201);
    const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: user.referralCode, refereeId: name });
    const reward = await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: tracked.referralTrackingId, eventName: "signup" });
    expect(reward).toMatchObject({ rewardClaimed: false, reason: "held_for_review" });
    held.push(tracked.referralTrackingId);
  }
  return held;
}

for (const colorScheme of ["light", "dark"] as const) {
  test(`program manager, ${colorScheme}: one save for the campaign, the funnel, the leaderboard, bulk decisions with each outcome`, async ({ browser, request }) => {
    test.setTimeout(240_000);
    const { projectId, apiKey, state } = await seed(browser);
    const api = restClient(request, apiKey, projectId);
    const context = await browser.newContext({ viewport: DESKTOP, colorScheme, storageState: state });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));

    // Item 2: the title and the reward protection in one save; both are there after a reload.
    await page.goto(`/dashboard/projects/${projectId}/campaign`);
    const form = page.getByRole("form", { name: "Campaign" });
    await form.getByLabel("Title", { exact: true }).fill("Invite a friend, both get a month");
    await form.getByLabel("Disposable e-mail address").selectOption({ label: "Hold for review" });
    await form.getByLabel("In all").fill("1");
    await expect(form.getByText("Unsaved changes")).toBeVisible();
    await form.getByRole("button", { name: "Save campaign" }).click();
    await expect(form.getByText("Saved: the whole campaign, reward protection included.")).toBeVisible();
    await page.reload();
    await expect(form.getByLabel("Title", { exact: true })).toHaveValue("Invite a friend, both get a month");
    await expect(form.getByLabel("Disposable e-mail address")).toHaveValue("review");
    await expect(form.getByLabel("In all")).toHaveValue("1");
    // The Tint hex field and the button-type select are whole inside their section at 1440 px.
    for (const [label, legend] of [
      ["Tint colour", "Theme"],
      ["Button type", "Trigger button"],
    ] as const) {
      const field = (await form.getByLabel(label, { exact: true }).boundingBox())!;
      const section = (await form.getByRole("group", { name: legend }).boundingBox())!;
      expect(field.x + field.width, `${label} ends inside its section`).toBeLessThanOrEqual(section.x + section.width);
    }
    const buttonType = form.getByLabel("Button type", { exact: true });
    expect(await buttonType.evaluate((el: HTMLSelectElement) => el.scrollWidth <= el.clientWidth + 1), "the button type's label is not cut off").toBe(true);
    await axe(page, "campaign");

    // Item 1: two held rewards of one referrer whose cap is one: a bulk approval asks first, then says
    // which was granted and which failed, and why, in words.
    const held = await heldReferrals(api, "ada", ["bob", "cy"]);
    await openProjectTab(page, projectId, "Reviews");
    const queue = page.getByRole("table", { name: "Held rewards" });
    await expect(queue.getByRole("row")).toHaveCount(3);
    await expect(queue).toContainText("bob@mailinator.com");
    await expect(queue).toContainText("2 referrals, 0 rewards, none denied");
    await page.getByLabel("Select all on this page").check();
    await page.getByRole("button", { name: "Approve selected (2)" }).click();
    const confirm = page.getByRole("region", { name: "Confirm the decision" });
    await expect(confirm).toContainText("Approve 2 held rewards?");
    await axe(page, "reviews, confirming");
    await confirm.getByRole("button", { name: "Approve 2 held rewards" }).click();
    const outcome = page.getByRole("status", { name: "Outcome of the decision" });
    await expect(outcome).toContainText("Approved 2 held rewards: 1 granted, 1 not granted.");
    await expect(outcome.locator('[data-outcome="granted"]')).toHaveCount(1);
    await expect(outcome.locator('[data-outcome="failed"]')).toContainText("Failed: Cap reached: the referrer earned as many rewards as the campaign allows.");
    await expect(queue).toContainText("No rewards are waiting for review.");
    const decisions = page.getByRole("table", { name: "Review decisions" });
    await expect(decisions.getByRole("row")).toHaveCount(3);
    await axe(page, "reviews");
    const referrals = await api.get<{ items: { referralTrackingId: string; status: string; failureReason: string | null }[] }>("/referrals?pageSize=100");
    expect(referrals.items.filter((r) => held.includes(r.referralTrackingId)).map((r) => r.failureReason ?? r.status).sort()).toEqual(["Completed", "referrer_cap_reached"]);

    // Item 3: the funnel counts referrals; clicks only link clicks; the period before is compared.
    await openProjectTab(page, projectId, "Overview");
    await expect(page.getByTestId("total-clicks")).toHaveText("0");
    await expect(page.getByTestId("total-tracked")).toHaveText("2");
    const funnel = page.getByRole("list", { name: "Funnel" });
    await expect(funnel.getByRole("listitem").nth(2)).toContainText("50.0% of the step before");
    await expect(funnel.getByRole("listitem").nth(1)).toContainText("Period before: 0 (new)");
    await expect(page.getByText(/^Compared with the period of the same length before/)).toBeVisible();
    // The project's own set-up checklist, dismissed for good.
    await expect(page.getByRole("heading", { name: "Get your referral programme live" })).toBeVisible();
    await axe(page, "overview");
    await page.getByRole("button", { name: "Dismiss the set-up checklist" }).click();
    await page.reload();
    await expect(page.getByTestId("total-tracked")).toHaveText("2");
    await expect(page.getByRole("heading", { name: "Get your referral programme live" })).toHaveCount(0);

    // Item 11: the leaderboard as its own page, with its export.
    await page.getByRole("link", { name: "Full leaderboard" }).click();
    const board = page.getByRole("table", { name: "Leaderboard" });
    await expect(board.getByRole("row")).toHaveCount(2);
    await expect(board).toContainText("ada");
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export CSV" }).click();
    expect((await download).suggestedFilename()).toMatch(/^program-shop-leaderboard-.*\.csv$/);
    await axe(page, "leaderboard");

    // At a phone's width the same pages fit, the queue's decisions stay in reach.
    await page.setViewportSize(PHONE);
    for (const section of ["campaign", "reviews", "leaderboard", ""]) {
      await page.goto(`/dashboard/projects/${projectId}/${section}`);
      await expect(page.getByRole("heading", { level: 1 }).first()).toBeVisible();
      await expect(page.getByText(/^Loading/)).toHaveCount(0);
      await fitsWidth(page, section || "overview");
      await axe(page, `${section || "overview"} on a phone`);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test(`support agent, ${colorScheme}: a denial with its reason in the history, Approve and Deny on a phone, Retry at 1440 px`, async ({ browser, request }) => {
    test.setTimeout(240_000);
    const receiver = await failingReceiver();
    try {
      const { projectId, apiKey, state } = await seed(browser);
      const api = restClient(request, apiKey, projectId);
      const project = await api.get<{ campaignId: string }>("");
      const rules = await request.put(`/api/v1/public/projects/${projectId}/campaign`, { headers: { Authorization: `Bearer ${apiKey}` }, data: { rewardRules: { disposableEmail: "review" } } });
      expect(rules.status(), await rules.text()).toBe(200);
      await api.post(`/webhooks/${project.campaignId}`, { name: "A receiver with a very long address", url: `${receiver.url}/${"segment/".repeat(12)}end` }, 201);
      const [held] = await heldReferrals(api, "dana", ["eve", "finn"]);

      // On a phone: each held reward is a card with its Approve and Deny in view.
      const context = await browser.newContext({ viewport: PHONE, colorScheme, storageState: state });
      const page = await context.newPage();
      await page.goto(`/dashboard/projects/${projectId}/reviews`);
      for (const name of ["eve", "finn"]) {
        await inView(page, page.getByRole("button", { name: `Approve the reward for ${name}` }), `Approve for ${name}`);
        await inView(page, page.getByRole("button", { name: `Deny the reward for ${name}` }), `Deny for ${name}`);
      }
      await fitsWidth(page, "reviews on a phone");
      // The verification banner goes when dismissed, and stays gone.
      const banner = page.getByRole("region", { name: "E-mail verification" });
      await expect(banner).toBeVisible();
      await banner.getByRole("button", { name: "Dismiss the verification reminder" }).click();
      await expect(banner).toHaveCount(0);

      // A denial asks for the reason; the history shows it, and the filter by reason finds the rest.
      await page.getByRole("button", { name: "Deny the reward for eve" }).click();
      const confirm = page.getByRole("region", { name: "Confirm the decision" });
      await confirm.getByLabel("Reason for the denial").fill("Same household as the referrer, confirmed by phone");
      await axe(page, "reviews on a phone, confirming");
      await confirm.getByRole("button", { name: "Deny 1 held reward" }).click();
      await expect(page.getByRole("status", { name: "Outcome of the decision" })).toContainText("Denied 1 held reward: 1 denied.");
      const decisions = page.getByRole("table", { name: "Review decisions" });
      await expect(decisions).toContainText("Same household as the referrer, confirmed by phone");
      await page.getByLabel("Held for").selectOption({ label: "The campaign holds every reward for a number of days" });
      await expect(page.getByText("No rewards are held for this reason.")).toBeVisible();
      await page.getByLabel("Held for").selectOption({ label: "Every reason" });
      await expect(page.getByRole("table", { name: "Held rewards" })).toContainText("finn");
      await axe(page, "reviews on a phone");

      // The referral's page links from the history and carries the decision.
      await decisions.getByRole("link", { name: `Referral ${held}` }).click();
      await expect(page.getByRole("table", { name: "Review decisions" })).toContainText("Same household as the referrer, confirmed by phone");
      await fitsWidth(page, "the referral on a phone");
      await page.reload();
      await expect(page.getByRole("region", { name: "E-mail verification" })).toHaveCount(0);

      // At 1440 px the deliveries table shows its Retry for the failing delivery; long addresses wrap.
      await page.setViewportSize(DESKTOP);
      await page.goto(`/dashboard/projects/${projectId}/reviews`);
      await page.getByRole("button", { name: "Approve the reward for finn" }).click();
      await expect(page.getByRole("status", { name: "Outcome of the decision" })).toContainText("1 granted");
      await page.goto(`/dashboard/projects/${projectId}/deliveries`);
      const deliveries = page.getByRole("table", { name: "Deliveries found" });
      // Retry (Failed) or Send now (still Pending): the column's one action, in view either way.
      const retry = deliveries.getByRole("button", { name: /^(Retry|Send now) delivery / }).first();
      await expect(retry).toBeVisible();
      await inView(page, retry, "Retry at 1440 px");
      await fitsWidth(page, "deliveries");
      await axe(page, "deliveries");
      await page.goto(`/dashboard/projects/${projectId}/webhooks`);
      await expect(page.getByText("A receiver with a very long address")).toBeVisible();
      await fitsWidth(page, "webhooks");
      await page.setViewportSize(PHONE);
      await fitsWidth(page, "webhooks on a phone");
      await axe(page, "webhooks on a phone");
      await context.close();
    } finally {
      await receiver.close();
    }
  });
}
