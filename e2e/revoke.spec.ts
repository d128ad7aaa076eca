import { expect, test } from "@playwright/test";
import { createApiKey, createProject, openProjectTab, restClient, signUp, type RewardResponse, type TrackResponse } from "./helpers";

test("the webhook form picks events; the campaign picks which provider events revoke; a referral's reward is revoked from its page after a confirmation", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const projectId = await createProject(page, { name: "Shop" });
  const apiKey = await createApiKey(page);
  const api = restClient(request, apiKey, projectId);

  // A webhook subscribed to reward.granted (the default, checked) and reward.revoked.
  await openProjectTab(page, projectId, "Webhooks");
  const form = page.getByRole("form", { name: "New webhook" });
  await form.getByLabel("Name").fill("Revocations");
  await form.getByLabel("URL").fill("http://127.0.0.1:9/hooks");
  await expect(form.getByRole("checkbox", { name: /^reward\.granted/ })).toBeChecked();
  await expect(form.getByRole("checkbox", { name: /^reward\.revoked/ })).not.toBeChecked();
  await form.getByRole("checkbox", { name: /^reward\.revoked/ }).check();
  await form.getByRole("button", { name: "Create webhook" }).click();
  await expect(page.getByRole("region", { name: "New webhook secret" })).toBeVisible();
  const hooks = await api.get<{ name: string; events: string[] }[]>("/webhooks");
  expect(hooks.find((h) => h.name === "Revocations")?.events).toEqual(["reward.granted", "reward.revoked"]);

  // The campaign says which provider events revoke: all on by default; a dispute turned off.
  await openProjectTab(page, projectId, "Campaign");
  const rules = page.getByRole("form", { name: "Campaign" });
  await expect(rules.getByRole("checkbox", { name: /A full refund/ })).toBeChecked();
  await rules.getByRole("checkbox", { name: /A dispute/ }).uncheck();
  await rules.getByRole("button", { name: "Save campaign" }).click();
  await expect(rules.getByText("Saved: the whole campaign, reward protection included.")).toBeVisible();
  expect((await api.get<{ revokeOn: unknown }>("/campaign")).revokeOn).toEqual({ refund: true, dispute: false, trialCancellation: true });

  // A granted reward.
  const ada = await api.post<{ referralCode: string }>("/users", { clientProvidedId: "ada" }, 201);
  const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: ada.referralCode, refereeId: "bob" });
  const reward = await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: tracked.referralTrackingId });
  expect(reward.rewardClaimed).toBe(true);

  // Revoked from its page: the reason, then a confirmation.
  await page.goto(`/dashboard/projects/${projectId}/referrals/${tracked.referralTrackingId}`);
  await page.getByLabel("Reason").fill("Refunded by support");
  await page.getByRole("button", { name: "Revoke reward" }).click();
  await expect(page.getByText("The referrer loses this reward, for good. Revoke?")).toBeVisible();
  await page.getByRole("button", { name: "Revoke now" }).click();
  await expect(page.getByText(/by a person in the dashboard: Refunded by support/)).toBeVisible();
  await expect(page.getByText("Revoked", { exact: true }).first()).toBeVisible();

  const detail = await api.get<{ referral: { status: string }; revocation: { revokedBy: string; reason: string } }>(`/referrals/${tracked.referralTrackingId}`);
  expect(detail.referral.status).toBe("Revoked");
  expect(detail.revocation).toMatchObject({ revokedBy: "dashboard", reason: "Refunded by support" });
});
