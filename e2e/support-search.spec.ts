import { expect, test } from "@playwright/test";
import { createApiKey, createProject, inviteAndJoin, openProjectTab, restClient, signUp, uniqueEmail, type RewardResponse, type TrackResponse } from "./helpers";

test("support: a viewer finds a referral by the referee's client id, and its reward events by the tracking id", async ({ page, browser, request }) => {
  test.setTimeout(120_000);
  // The owner's set-up: two referrals of rita's, one rewarded, one refused (the other waits for its event).
  await signUp(page, { organization: "Search Co" });
  const projectId = await createProject(page, { name: "Search shop" });
  const api = restClient(request, await createApiKey(page), projectId);
  const rita = await api.post<{ referralCode: string }>("/users", { clientProvidedId: "rita" }, 201);
  const referee = `customer-${Date.now()}`;
  const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: rita.referralCode, refereeId: referee });
  expect((await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: tracked.referralTrackingId, eventName: "purchase" })).rewardClaimed).toBe(true);
  const waiting = await api.post<TrackResponse>("/referrals/track", { referralCode: rita.referralCode, refereeId: "someone-else", rewardEventName: "signup" });
  expect(await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: waiting.referralTrackingId, eventName: "purchase" })).toMatchObject({ reason: "event_mismatch" });

  const viewer = await (await browser.newContext()).newPage();
  await inviteAndJoin(page, viewer, uniqueEmail("support-search"), "Viewer");

  // Referrals: the customer's id finds their one referral; the filter is in the URL and survives a reload.
  await openProjectTab(viewer, projectId, "Referrals");
  const referrals = viewer.getByRole("table", { name: "Referrals" });
  await expect(referrals.getByRole("row")).toHaveCount(3);
  const filters = viewer.getByRole("search", { name: "Filter referrals" });
  await filters.getByRole("searchbox", { name: "Search" }).fill(referee);
  await filters.getByRole("button", { name: "Search", exact: true }).click();
  await expect(viewer).toHaveURL(new RegExp(`q=${referee}`));
  await expect(referrals.getByRole("row")).toHaveCount(2);
  await expect(referrals.getByRole("row").nth(1)).toContainText("Completed");
  await expect(viewer.getByText("The client id of a referee")).toBeVisible();
  await viewer.reload();
  await expect(filters.getByRole("searchbox", { name: "Search" })).toHaveValue(referee);
  await expect(referrals.getByRole("row")).toHaveCount(2);
  // A part of the id matches nothing: the search is exact.
  await filters.getByRole("searchbox", { name: "Search" }).fill(referee.slice(0, -1));
  await filters.getByRole("button", { name: "Search", exact: true }).click();
  await expect(referrals).toContainText("Nothing matches this id exactly");

  // Reward events, under Activity: the tracking id finds the claimed event, linked to the referral and both users.
  await openProjectTab(viewer, projectId, "Activity");
  await viewer.getByRole("navigation", { name: "Activity views" }).getByRole("link", { name: "Reward events" }).click();
  const events = viewer.getByRole("table", { name: "Reward events" });
  await expect(events.getByRole("row")).toHaveCount(3);
  const eventFilters = viewer.getByRole("search", { name: "Filter reward events" });
  await eventFilters.getByRole("searchbox", { name: "Search" }).fill(tracked.referralTrackingId);
  await eventFilters.getByRole("button", { name: "Search", exact: true }).click();
  await expect(viewer).toHaveURL(new RegExp(`q=${tracked.referralTrackingId}`));
  await expect(events.getByRole("row")).toHaveCount(2);
  const row = events.getByRole("row").nth(1);
  await expect(row).toContainText("Claimed");
  await expect(row).toContainText("purchase");
  await expect(row.getByRole("link", { name: "rita" })).toBeVisible();
  await expect(row.getByRole("link", { name: referee })).toBeVisible();
  // The refused one, by outcome: what came of it, in words.
  await eventFilters.getByRole("button", { name: "Clear filters" }).click();
  await eventFilters.getByLabel("Outcome").selectOption({ label: "Recorded, waiting" });
  await expect(events.getByRole("row")).toHaveCount(2);
  await expect(events.getByRole("row").nth(1)).toContainText("Different event");
  await expect(viewer).toHaveURL(/outcome=Recorded/);
  // And from the claimed event to its referral's page.
  await viewer.goBack();
  await viewer.goBack();
  await expect(events.getByRole("row")).toHaveCount(2);
  await events.getByRole("link", { name: `Referral ${tracked.referralTrackingId}` }).click();
  await expect(viewer.getByRole("table", { name: "Reward events" })).toContainText("Claimed");
  await expect(viewer).toHaveURL(new RegExp(`/referrals/${tracked.referralTrackingId}$`));

  // The activity feed: the same tracking id finds that referral's entries.
  await openProjectTab(viewer, projectId, "Activity");
  const feedFilters = viewer.getByRole("search", { name: "Filter activity" });
  await feedFilters.getByRole("searchbox", { name: "Search" }).fill(tracked.referralTrackingId);
  const feed = viewer.getByRole("table", { name: "Activity" });
  await expect(feed.getByRole("row")).toHaveCount(3);
  await expect(feed).toContainText("Reward claimed");
  await expect(feed).toContainText("Referral tracked");
});
