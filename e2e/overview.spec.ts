import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { createApiKey, createProject, openProjectTab, restClient, signUp, type RewardResponse, type TrackResponse } from "./helpers";

/** A project with two referrers, three arrivals, one reward claimed and one refused; its id and alice. */
async function seededProject(page: Page, request: APIRequestContext) {
  await signUp(page);
  const projectId = await createProject(page, { name: "Insight shop" });
  const apiKey = await createApiKey(page);
  const api = restClient(request, apiKey, projectId);

  // Two referrers; three arrivals; one reward claimed, one refused (the same referee again).
  const alice = await api.post<{ referralCode: string; uniqueId: string }>("/users", { clientProvidedId: "alice", attributes: { plan: "=1+1" } }, 201);
  const bob = await api.post<{ referralCode: string }>("/users", { clientProvidedId: "bob" }, 201);
  const first = await api.post<TrackResponse>("/referrals/track", { referralCode: alice.referralCode, refereeId: "carol" });
  const again = await api.post<TrackResponse>("/referrals/track", { referralCode: bob.referralCode, refereeId: "carol" });
  await api.post<TrackResponse>("/referrals/track", { referralCode: bob.referralCode, refereeId: "dave" });
  expect((await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: first.referralTrackingId, eventName: "purchase" })).rewardClaimed).toBe(true);
  expect((await api.post<RewardResponse>("/referrals/reward", { referralTrackingId: again.referralTrackingId, eventName: "purchase" })).rewardClaimed).toBe(false);
  return { projectId, alice };
}

test("overview: a project opens on its figures and charts, with the range in the URL", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { projectId, alice } = await seededProject(page, request);

  // The project opens on its overview.
  await page.goto(`/dashboard/projects/${projectId}`);
  const tabs = page.getByRole("navigation", { name: "Project sections" });
  await expect(tabs.getByRole("link", { name: "Overview" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByTestId("total-tracked")).toHaveText("3");
  await expect(page.getByTestId("total-completed")).toHaveText("1");
  await expect(page.getByTestId("total-failed")).toHaveText("1");
  // Referrals tracked over REST are no link clicks.
  await expect(page.getByTestId("total-clicks")).toHaveText("0");
  await expect(page.getByTestId("previous-tracked")).toHaveText("new (was 0)");

  // The funnel counts referrals at each step, with its step rates.
  const funnel = page.getByRole("list", { name: "Funnel" });
  await expect(funnel.getByRole("listitem").nth(1)).toContainText("Referrals tracked");
  await expect(funnel.getByRole("listitem").nth(2)).toContainText("Referrals rewarded");
  await expect(funnel.getByRole("listitem").nth(2)).toContainText("33.3% of the step before");
  await expect(funnel.getByRole("listitem").nth(3)).toContainText("Referrals delivered");

  // The daily chart is drawn (two lines), and its figures are in a table for screen readers.
  await expect(page.getByTestId("daily-chart").locator("path.recharts-line-curve")).toHaveCount(2);
  const dailyTable = page.getByRole("table", { name: "Referrals per day" });
  await expect(dailyTable.getByRole("row")).toHaveCount(31);
  const today = new Date().toISOString().slice(0, 10);
  const todayRow = dailyTable.getByRole("row", { name: new RegExp(`^${today}`) });
  await expect(todayRow.getByRole("cell")).toHaveText(["3", "1"]);

  // Reward events by name, claimed against refused with the reason; the top referrer links to her page.
  await expect(page.getByTestId("reward-events-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
  const events = page.getByRole("table", { name: "Reward events by name" });
  await expect(events.getByRole("row", { name: /purchase/ })).toContainText(/Duplicate referee|Not the first arrival/);
  await page.getByRole("list", { name: "Top referrers" }).getByRole("link", { name: "alice" }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${alice.uniqueId}$`));
  await expect(page.getByRole("heading", { name: "alice", level: 2 })).toBeVisible();

  // The range is in the URL: 7 days, then a custom range that holds nothing.
  await openProjectTab(page, projectId, "Overview");
  await page.getByRole("group", { name: "Range" }).getByRole("button", { name: "7 days" }).click();
  await expect(page).toHaveURL(/[?&]range=7\b/);
  await expect(dailyTable.getByRole("row")).toHaveCount(8);
});

test("overview: a custom range survives a reload; exports download with their rows counted; the projects list's figures", async ({ page, request }) => {
  test.setTimeout(120_000);
  const { projectId } = await seededProject(page, request);
  await page.goto(`/dashboard/projects/${projectId}`);
  // Every overview call this test makes is answered: the picker never asks for a range the server refuses.
  const refused: string[] = [];
  page.on("response", (r) => r.url().includes("/api/trpc/") && r.status() >= 400 && refused.push(`${r.status()} ${decodeURIComponent(r.url())}`));
  const dailyTable = page.getByRole("table", { name: "Referrals per day" });
  const shown = page.getByTestId("range-shown");
  await page.getByRole("group", { name: "Range" }).getByRole("button", { name: "Custom" }).click();
  await page.getByLabel("From", { exact: true }).fill("2026-01-01");
  await page.getByLabel("To", { exact: true }).fill("2026-01-03");
  await expect(page).toHaveURL(/[?&]from=2026-01-01&to=2026-01-03$/);
  await expect(shown).toHaveText("2026-01-01 to 2026-01-03 (UTC)");
  await expect(page.getByTestId("total-tracked")).toHaveText("0");

  // Both ends changed before the page renders the first change (the router applies a URL change in a
  // transition; a busy machine lags): the second edit keeps the first. It once kept the end the page
  // showed, asked for a backwards range and stayed on "Loading…".
  const toInput = await page.getByLabel("To", { exact: true }).elementHandle();
  await page.getByLabel("From", { exact: true }).evaluate((fromInput, to) => {
    const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!;
    for (const [input, day] of [[fromInput, "2026-02-01"], [to, "2026-02-05"]] as const) {
      setValue.call(input, day);
      input!.dispatchEvent(new Event("input", { bubbles: true }));
    }
  }, toInput);
  await expect(page).toHaveURL(/[?&]from=2026-02-01&to=2026-02-05$/);
  await expect(shown).toHaveText("2026-02-01 to 2026-02-05 (UTC)");

  // A backwards range on the way (From moved past To first) is not asked for: the figures stay, the field says why.
  await page.getByLabel("From", { exact: true }).fill("2026-03-01");
  await expect(page.getByText("To must not be before From.")).toBeVisible();
  await expect(shown).toHaveText("2026-02-01 to 2026-02-05 (UTC)");
  await expect(page.getByTestId("total-tracked")).toHaveText("0");
  await page.getByLabel("To", { exact: true }).fill("2026-03-03");
  await expect(shown).toHaveText("2026-03-01 to 2026-03-03 (UTC)");
  await expect(page.getByText("To must not be before From.")).toHaveCount(0);

  await page.reload();
  await expect(page.getByTestId("total-tracked")).toHaveText("0");
  await expect(dailyTable.getByRole("row")).toHaveCount(4);
  expect(refused).toEqual([]);

  // Exports download as they stream, with the rows counted.
  await page.goto(`/dashboard/projects/${projectId}`);
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download app users" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^insight-shop-app-users-.*\.csv$/);
  const text = await readFile((await file.path())!, "utf8");
  expect(text.split("\r\n")[0]).toBe("uniqueId,clientProvidedId,referralCode,status,totalReferralsGiven,totalReferralsReceived,successfulReferrals,firstSeenAt,lastSeenAt,createdAt");
  expect(text).toContain(",alice,");
  await expect(page.getByText("4 rows downloaded.")).toBeVisible();

  // The users' table exports its filter, with chosen attributes as columns (formulas neutralised).
  await openProjectTab(page, projectId, "App users");
  await page.getByLabel("Attribute column", { exact: true }).fill("plan");
  await page.getByRole("button", { name: "Add column" }).click();
  await page.getByLabel("Search app users").fill("alice");
  await expect(page).toHaveURL(/q=alice/);
  const filtered = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const rows = (await readFile((await (await filtered).path())!, "utf8")).trim().split("\r\n");
  expect(rows).toHaveLength(2);
  expect(rows[0]!.endsWith(",plan")).toBe(true);
  expect(rows[1]!.endsWith(",'=1+1")).toBe(true);

  // The organisation's projects list shows the last 30 days, and its overview each project side by side.
  await page.goto("/dashboard");
  const row = page.getByRole("table", { name: "Projects" }).getByRole("row", { name: /Insight shop/ });
  await expect(row.getByRole("cell").nth(2)).toHaveText("3");
  await expect(row.getByRole("cell").nth(3)).toHaveText("1");
  await expect(page.getByRole("region", { name: "Insight shop" })).toContainText("33.3%");
});

test("app users: attribute columns and an exact attribute filter, kept in the URL and exported alike", async ({ page, request }) => {
  test.setTimeout(120_000);
  await signUp(page);
  const projectId = await createProject(page, { name: "Attribute shop" });
  const api = restClient(request, await createApiKey(page), projectId);
  const people: [string, Record<string, string>][] = [
    ["erin", { plan: "pro", country: "DE" }],
    ["frank", { plan: "pro", country: 'FR, "Paris"' }],
    ["gina", { plan: "Pro", country: "DE" }],
    ["hal", { plan: "pro " }],
    ["ivy", {}],
  ];
  for (const [clientProvidedId, attributes] of people) await api.post("/users", { clientProvidedId, attributes }, 201);

  await openProjectTab(page, projectId, "App users");
  const table = page.getByRole("table", { name: "App users" });
  await expect(table.getByRole("row")).toHaveCount(6);

  // A column for an attribute: the key is offered from the project's users, and its values show.
  await expect(page.locator("datalist option[value='country']")).toHaveCount(1);
  await page.getByLabel("Attribute column", { exact: true }).fill("country");
  await page.getByRole("button", { name: "Add column" }).click();
  await expect(table.getByRole("columnheader", { name: "country" })).toBeVisible();
  await expect(page).toHaveURL(/[?&]columns=country\b/);
  await expect(table.getByRole("row", { name: /frank/ })).toContainText('FR, "Paris"');

  // The filter matches the value exactly: not "Pro", not "pro ".
  await page.getByLabel("Filter by attribute").fill("plan");
  await page.getByLabel("Attribute value").fill("pro");
  await expect(page).toHaveURL(/attributeKey=plan&attributeValue=pro\b/);
  const shown = table.getByRole("row").filter({ hasNot: page.getByRole("columnheader") });
  await expect(shown).toHaveCount(2);
  await expect(shown.nth(0)).toContainText("frank");
  await expect(shown.nth(1)).toContainText("erin");

  // A reload shows the same view; the export has the same users and the chosen column.
  await page.reload();
  await expect(shown).toHaveCount(2);
  await expect(page.getByLabel("Attribute value")).toHaveValue("pro");
  await expect(table.getByRole("columnheader", { name: "country" })).toBeVisible();
  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export CSV" }).click();
  const rows = (await readFile((await (await download).path())!, "utf8")).trim().split("\r\n");
  expect(rows[0]!.endsWith(",createdAt,country")).toBe(true);
  expect(rows.slice(1).map((r) => r.split(",")[1]).sort()).toEqual(["erin", "frank"]);
  expect(rows.find((r) => r.includes(",frank,"))!.endsWith(',"FR, ""Paris"""')).toBe(true);

  // Removing the column and the value brings back everyone without it.
  await page.getByRole("button", { name: "Remove column country" }).click();
  await expect(table.getByRole("columnheader", { name: "country" })).toHaveCount(0);
  await page.getByLabel("Attribute value").fill("");
  await expect(shown).toHaveCount(5);
});
