import { expect, test } from "@playwright/test";
import { createApiKey, createProject, openProjectTab, restClient, signUp, type RewardResponse, type TrackResponse } from "./helpers";

test("referrals: app user, referral link, track and reward over REST, results in the dashboard", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const projectId = await createProject(page, { name: "Shop", redirectLink: "https://shop.example.com/join" });
  const apiKey = await createApiKey(page);
  const api = restClient(request, apiKey, projectId);

  // Create an app user with an attribute; a second one with the same client id gets the server's 409.
  await openProjectTab(page, projectId, "App users");
  await expect(page.getByRole("table", { name: "App users" })).toContainText("No app users yet");
  await page.getByRole("button", { name: "New app user" }).click();
  const createForm = page.getByRole("form", { name: "New app user" });
  await createForm.getByLabel("Client id").fill("alice");
  await createForm.getByRole("button", { name: "Add attribute" }).click();
  await createForm.getByLabel("Attribute 1 name").fill("plan");
  await createForm.getByLabel("Attribute 1 value").fill("pro");
  await createForm.getByRole("button", { name: "Create app user" }).click();
  await expect(createForm.getByRole("status")).toContainText("Created alice with referral code");
  const usersTable = page.getByRole("table", { name: "App users" });
  await expect(usersTable.getByRole("link", { name: "alice" })).toBeVisible();

  await createForm.getByLabel("Client id").fill("alice");
  await createForm.getByRole("button", { name: "Create app user" }).click();
  await expect(createForm.getByText('An app user with ClientProvidedId "alice" already exists in this project.')).toBeVisible();
  await expect(createForm.getByLabel("Client id")).toHaveAttribute("aria-invalid", "true");

  // Open the user: the referral link carries their code; copy it and read the clipboard.
  await usersTable.getByRole("link", { name: "alice" }).click();
  await expect(page.getByRole("heading", { name: "alice", level: 2 })).toBeVisible();
  await expect(page.getByLabel("Referral link", { exact: true })).toHaveValue(/^https:\/\/shop\.example\.com\/join\?referralCode=[A-Za-z0-9]{6}$/);
  await page.getByRole("button", { name: "Copy referral link" }).click();
  await expect(page.getByRole("button", { name: "Copy referral link" })).toHaveText("Copied");
  const link = await page.evaluate(() => navigator.clipboard.readText());
  const code = new URL(link).searchParams.get("referralCode") ?? "";
  expect(code).toMatch(/^[A-Za-z0-9]{6}$/);
  const aliceUrl = page.url();

  // A reward event name pre-assigns the qualifying event in the link.
  await page.getByLabel("Reward event name").fill("first_purchase");
  await page.getByRole("button", { name: "Update link" }).click();
  await expect(page.getByLabel("Referral link", { exact: true })).toHaveValue(`https://shop.example.com/join?referralCode=${code}&rewardEventName=first_purchase`);

  // The attributes editor replaces the whole map.
  const attributes = page.getByRole("form", { name: "Attributes" });
  await expect(attributes.getByLabel("Attribute 1 name")).toHaveValue("plan");
  await attributes.getByLabel("Attribute 1 value").fill("enterprise");
  await attributes.getByRole("button", { name: "Add attribute" }).click();
  await attributes.getByLabel("Attribute 2 name").fill("country");
  await attributes.getByLabel("Attribute 2 value").fill("NL");
  await attributes.getByRole("button", { name: "Save attributes" }).click();
  await expect(attributes.getByRole("status")).toHaveText("Saved.");

  // The backend tracks bob's arrival with the link's code and rewards it: Completed.
  const tracked = await api.post<TrackResponse>("/referrals/track", { referralCode: code, refereeId: "bob" });
  expect(tracked.status).toBe("Pending");
  const reward = await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: tracked.referralTrackingId });
  expect(reward).toMatchObject({ rewardClaimed: true, status: "Completed" });
  // The same pair again: the second item fails as a duplicate referee.
  const again = await api.post<TrackResponse>("/referrals/track", { referralCode: code, refereeId: "bob" });
  const duplicate = await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: again.referralTrackingId });
  expect(duplicate).toMatchObject({ rewardClaimed: false, status: "Failed", reason: "duplicate_referee" });

  // Referrals tab: filtered by status, with the human reason for the failure.
  await openProjectTab(page, projectId, "Referrals");
  const referrals = page.getByRole("table", { name: "Referrals" });
  await expect(referrals.getByRole("row")).toHaveCount(3);
  await page.getByRole("group", { name: "Status" }).getByRole("button", { name: "Completed" }).click();
  await expect(page).toHaveURL(/status=Completed/);
  await expect(referrals.getByRole("row")).toHaveCount(2);
  const completedRow = referrals.getByRole("row").nth(1);
  await expect(completedRow).toContainText("Completed");
  await expect(completedRow.getByRole("link", { name: "alice" })).toBeVisible();
  await expect(completedRow.getByRole("link", { name: "bob" })).toBeVisible();
  await expect(completedRow).toContainText(code);
  await page.getByRole("group", { name: "Status" }).getByRole("button", { name: "Failed" }).click();
  await expect(referrals.getByRole("row")).toHaveCount(2);
  const failedRow = referrals.getByRole("row").nth(1);
  await expect(failedRow).toContainText("Failed");
  await expect(failedRow).toContainText("Duplicate referee: this user already completed a referral in this project");
  await expect(failedRow).toContainText("duplicate_referee");
  await page.getByRole("group", { name: "Status" }).getByRole("button", { name: "Pending" }).click();
  await expect(referrals).toContainText("No pending referrals.");
  // The filter survives a reload; the referee's name leads to their page.
  await page.getByRole("group", { name: "Status" }).getByRole("button", { name: "Completed" }).click();
  await page.reload();
  await expect(page.getByRole("group", { name: "Status" }).getByRole("button", { name: "Completed" })).toHaveAttribute("aria-pressed", "true");
  await referrals.getByRole("link", { name: "bob" }).click();
  await expect(page.getByRole("heading", { name: "bob", level: 2 })).toBeVisible();
  const received = page.getByRole("table", { name: "Referrals received" });
  await expect(received.getByRole("row")).toHaveCount(3);
  await expect(received.getByRole("link", { name: "alice" }).first()).toBeVisible();

  // The users table shows the counters; search, filter and sort live in the URL.
  await openProjectTab(page, projectId, "App users");
  const aliceRow = usersTable.getByRole("row", { name: /alice/ });
  await expect(aliceRow.getByRole("cell").nth(2)).toHaveText("2"); // given
  await expect(aliceRow.getByRole("cell").nth(3)).toHaveText("1"); // successful
  await expect(aliceRow.getByRole("cell").nth(4)).toHaveText("0"); // received
  const bobRow = usersTable.getByRole("row", { name: /bob/ });
  await expect(bobRow.getByRole("cell").nth(4)).toHaveText("2");

  await page.getByRole("group", { name: "Has referrals" }).getByRole("button", { name: "With referrals" }).click();
  await expect(usersTable.getByRole("row")).toHaveCount(2);
  await expect(usersTable.getByRole("link", { name: "alice" })).toBeVisible();
  await page.getByRole("group", { name: "Has referrals" }).getByRole("button", { name: "All" }).click();
  await page.getByLabel("Search app users").fill("BO");
  await expect(page).toHaveURL(/[?&]q=BO/);
  await expect(usersTable.getByRole("row")).toHaveCount(2);
  await expect(usersTable.getByRole("link", { name: "bob" })).toBeVisible();
  await page.getByLabel("Search app users").fill("");
  await expect(usersTable.getByRole("row")).toHaveCount(3);
  await usersTable.getByRole("button", { name: "Client id" }).click();
  await expect(page).toHaveURL(/sortBy=clientProvidedId&sortOrder=asc/);
  await expect(usersTable.getByRole("columnheader", { name: "Client id" })).toHaveAttribute("aria-sort", "ascending");
  await expect(usersTable.getByRole("row").nth(1)).toContainText("alice");
  await usersTable.getByRole("button", { name: "Client id" }).click();
  await expect(usersTable.getByRole("columnheader", { name: "Client id" })).toHaveAttribute("aria-sort", "descending");
  await expect(usersTable.getByRole("row").nth(1)).toContainText("bob");
  await page.reload();
  await expect(usersTable.getByRole("columnheader", { name: "Client id" })).toHaveAttribute("aria-sort", "descending");
  await expect(usersTable.getByRole("row").nth(1)).toContainText("bob");
  await expect(page.getByRole("navigation", { name: "App users pages" })).toContainText("1–2 of 2");

  // The referrer's page: both referrals given, with status and reason; the saved attributes.
  await page.goto(aliceUrl);
  const given = page.getByRole("table", { name: "Referrals given" });
  await expect(given.getByRole("row")).toHaveCount(3);
  await expect(given.getByRole("row", { name: /Completed/ })).toContainText("bob");
  await expect(given.getByRole("row", { name: /Failed/ })).toContainText("Duplicate referee");
  await expect(attributes.getByLabel("Attribute 1 value")).toHaveValue("enterprise");
  await expect(attributes.getByLabel("Attribute 2 name")).toHaveValue("country");
  const events = page.getByRole("list", { name: "Events" });
  await expect(events.getByRole("listitem").filter({ hasText: "Reward claimed" })).toContainText("alice earned a reward: bob completed");
  await expect(events.getByRole("listitem").filter({ hasText: "Reward rejected" })).toContainText("duplicate_referee");

  // The activity feed, newest first, links entries to their user.
  await openProjectTab(page, projectId, "Activity");
  const feed = page.getByRole("table", { name: "Activity" });
  await expect(feed.getByRole("row").nth(1)).toContainText("Reward rejected");
  await expect(feed.getByRole("row", { name: /Reward claimed/ })).toContainText("alice earned a reward: bob completed");
  await expect(feed.getByRole("row", { name: /Referral tracked/ })).toHaveCount(2);
  await expect(feed.getByRole("row", { name: /User created/ }).filter({ hasText: "alice" })).toBeVisible();
  await feed.getByRole("row", { name: /Reward claimed/ }).getByRole("link", { name: "View user" }).click();
  await expect(page.getByRole("heading", { name: "alice", level: 2 })).toBeVisible();

  // A project without a redirect link: the user page explains the server's 400 and points to Settings.
  const bare = await request.post("/api/v1/public/projects", { headers: { Authorization: `Bearer ${apiKey}` }, data: { name: "Bare", appType: "Web" } });
  expect(bare.status()).toBe(201);
  const bareId = ((await bare.json()) as { uniqueId: string }).uniqueId;
  const carol = await restClient(request, apiKey, bareId).post<{ uniqueId: string }>("/users", { clientProvidedId: "carol" }, 201);
  await page.goto(`/dashboard/projects/${bareId}/users/${carol.uniqueId}`);
  await expect(page.getByRole("alert").filter({ hasText: "The project has no referral redirect link" })).toBeVisible();
  await page.getByRole("link", { name: "Open the project settings" }).click();
  await expect(page.getByRole("form", { name: "Project settings" })).toBeVisible();
});
