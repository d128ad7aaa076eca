import { expect, test } from "@playwright/test";
import { createApiKey, createProject, inviteAndJoin, openProjectTab, restClient, signUp, uniqueEmail, type RewardResponse, type TrackResponse } from "./helpers";

test("reward protection: a rule holds rewards, viewers read the queue, the owner approves one and denies the rest in bulk, a user is erased", async ({ page, request, browser }) => {
  test.setTimeout(180_000);
  await signUp(page);
  const projectId = await createProject(page, { name: "Shop" });
  const apiKey = await createApiKey(page);
  const api = restClient(request, apiKey, projectId);

  // The campaign's reward protection, checked by the API's own schema before it is sent.
  await openProjectTab(page, projectId, "Campaign");
  const rules = page.getByRole("form", { name: "Campaign" });
  await rules.getByLabel("Hold every reward (days)").fill("91");
  await rules.getByRole("button", { name: "Save campaign" }).click();
  await expect(rules.getByText(/90/).first()).toBeVisible();
  await expect(rules.getByLabel("Hold every reward (days)")).toHaveAttribute("aria-invalid", "true");
  await rules.getByLabel("Hold every reward (days)").fill("0");
  await rules.getByLabel("Disposable e-mail address").selectOption({ label: "Hold for review" });
  await rules.getByRole("button", { name: "Save campaign" }).click();
  await expect(rules.getByText("Saved: the whole campaign, reward protection included.")).toBeVisible();

  // Three referees with disposable addresses: each reward is held, nothing delivered.
  const ada = await api.post<{ referralCode: string }>("/users", { clientProvidedId: "ada" }, 201);
  const held: string[] = [];
  for (const name of ["bob", "cy", "dee"]) {
    await api.post("/users", { clientProvidedId: name, attributes: { email: `${name}@mailinator.com` } }, 201);
    const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: ada.referralCode, refereeId: name });
    const reward = await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: tracked.referralTrackingId });
    expect(reward).toMatchObject({ rewardClaimed: false, status: "Pending", reason: "held_for_review" });
    held.push(tracked.referralTrackingId);
  }

  // A viewer reads the queue but cannot decide.
  const viewerContext = await browser.newContext();
  const viewer = await viewerContext.newPage();
  await inviteAndJoin(page, viewer, uniqueEmail("viewer"), "Viewer");
  await viewer.goto(`/dashboard/projects/${projectId}/reviews`);
  const viewerQueue = viewer.getByRole("table", { name: "Held rewards" });
  await expect(viewerQueue.getByRole("row")).toHaveCount(4);
  await expect(viewerQueue).toContainText("disposable-mail domain");
  await expect(viewer.getByText("Only owners and members can approve and deny held rewards.")).toBeVisible();
  await expect(viewer.getByRole("button", { name: /Approve/ })).toHaveCount(0);
  await viewerContext.close();

  // The owner approves bob's reward on its own, then denies the other two together.
  await openProjectTab(page, projectId, "Reviews");
  const queue = page.getByRole("table", { name: "Held rewards" });
  await expect(queue.getByRole("row")).toHaveCount(4);
  await page.getByRole("button", { name: "Approve the reward for bob" }).click();
  await expect(page.getByText("Approved 1 held reward: 1 granted, 0 not granted.")).toBeVisible();
  await expect(queue.getByRole("row")).toHaveCount(3);
  await page.getByLabel("Select all on this page").check();
  await page.getByRole("button", { name: "Deny selected (2)" }).click();
  // Bulk decisions are confirmed first, with the reason in words.
  await page.getByLabel("Reason for the denial").fill("Throwaway addresses");
  await page.getByRole("button", { name: "Deny 2 held rewards" }).click();
  await expect(page.getByText("Denied 2 held rewards: 2 denied.")).toBeVisible();
  await expect(queue).toContainText("No rewards are waiting for review.");

  const referrals = await api.get<{ items: { referralTrackingId: string; status: string; failureReason: string | null }[] }>("/referrals?pageSize=100");
  const byId = new Map(referrals.items.map((r) => [r.referralTrackingId, r]));
  expect(byId.get(held[0]!)).toMatchObject({ status: "Completed" });
  expect(byId.get(held[1]!)).toMatchObject({ status: "Failed", failureReason: "denied_in_review" });
  expect(byId.get(held[2]!)).toMatchObject({ status: "Failed", failureReason: "denied_in_review" });

  // Erasing ada from her page, after a confirmation that names her.
  await openProjectTab(page, projectId, "App users");
  await page.getByRole("table", { name: "App users" }).getByRole("link", { name: "ada" }).click();
  await expect(page.getByRole("heading", { name: "ada", level: 2 })).toBeVisible();
  await page.getByRole("button", { name: "Erase user" }).click();
  await expect(page.getByText("Erase ada?")).toBeVisible();
  await page.getByRole("button", { name: "Erase ada" }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/projects/${projectId}/users\\?erased=ada$`));
  await expect(page.getByRole("status").filter({ hasText: "ada was erased" })).toBeVisible();
  const gone = await request.get(`/api/v1/public/projects/${projectId}/users/by-user-id/ada`, { headers: { Authorization: `Bearer ${apiKey}` } });
  expect(gone.status()).toBe(404);
  const after = await api.get<{ items: { referralTrackingId: string; status: string; referrerErased: boolean }[] }>("/referrals?pageSize=100");
  expect(after.items.find((r) => r.referralTrackingId === held[0])).toMatchObject({ status: "Completed", referrerErased: true });
});
