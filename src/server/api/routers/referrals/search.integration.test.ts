import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import {
  createAppUserOverRest,
  createProjectOverRest as createProject,
  expectProblem,
  type RestAppUser,
  type RestClient,
  restClientForNewOrg,
  trackOverRest,
} from "@/test/rest";

/*
 * The support console's searches besides the deliveries': the referrals list (and its CSV export), the
 * reward events across a project, and the activity feed, over HTTP: a term matched exactly as a
 * tracking id or either party's client id, the filters together, bad input a 400 naming the field,
 * and another organisation's project a 404 whose ids never match here.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let projectId: string;
let theirProjectId: string;
let alice: RestAppUser;
/** Tracking ids by referee (bob has two: the first completed, the second failed as a duplicate). */
const item: Record<"bob" | "carol" | "erin" | "bob2", string> = { bob: "", carol: "", erin: "", bob2: "" };

type Referral = { referralTrackingId: string; referrerId: string | null; refereeId: string | null; status: string; createdAt: string };
type RewardEvent = {
  id: string;
  eventName: string | null;
  outcome: string;
  reason: string | null;
  at: string;
  trackingId: string | null;
  referrerId: string | null;
  refereeId: string | null;
  referrerUniqueId: string | null;
  refereeUniqueId: string | null;
};
type Activity = { id: string; type: string; description: string; appUserId: string | null; trackingId: string | null; createdAt: string };
type Page<T> = { items: T[]; page: number; pageSize: number; totalCount: number; hasNextPage: boolean };

async function get<T>(path: string, query = "", client = call): Promise<Page<T>> {
  const res = await client("GET", `/projects/${projectId}/${path}${query ? `?${query}` : ""}`);
  expect(res.status, res.text).toBe(200);
  return res.json as Page<T>;
}
const referrals = (query = "") => get<Referral>("referrals", query);
const rewardEvents = (query = "") => get<RewardEvent>("reward-events", query);
const activity = (query = "") => get<Activity>("activity", query);

async function reward(trackingId: string, eventName: string) {
  const res = await call("POST", `/projects/${projectId}/referrals/reward`, { body: { ReferralTrackingId: trackingId, EventName: eventName } });
  expect(res.status, res.text).toBe(200);
  return res.json as { rewardClaimed: boolean; reason?: string };
}

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  projectId = await createProject(call, "Searchable");
  theirProjectId = await createProject(other, "Theirs");
  // The other organisation has an "alice" too: her referrals must never show here.
  const theirAlice = await createAppUserOverRest(other, theirProjectId, "alice");
  await trackOverRest(other, theirProjectId, theirAlice, "bob");

  alice = await createAppUserOverRest(call, projectId, "alice");
  const dave = await createAppUserOverRest(call, projectId, "dave");
  item.bob = (await trackOverRest(call, projectId, alice, "bob")).trackingId;
  expect(await reward(item.bob, "purchase")).toMatchObject({ rewardClaimed: true });
  item.carol = (await trackOverRest(call, projectId, alice, "carol", "signup")).trackingId;
  expect(await reward(item.carol, "purchase")).toMatchObject({ rewardClaimed: false, reason: "event_mismatch" });
  item.erin = (await trackOverRest(call, projectId, dave, "erin")).trackingId;
  expect(await reward(item.erin, "signup")).toMatchObject({ rewardClaimed: true });
  item.bob2 = (await trackOverRest(call, projectId, alice, "bob")).trackingId;
  expect(await reward(item.bob2, "purchase")).toMatchObject({ rewardClaimed: false, reason: "duplicate_referee" });
});
afterAll(async () => {
  await t.drop();
});

describe("GET /projects/{projectId}/referrals: search and filters", () => {
  it("finds by a tracking id or either party's client id, exactly", async () => {
    expect((await referrals()).totalCount).toBe(4);
    expect((await referrals("search=alice")).items.map((r) => r.refereeId)).toEqual(["bob", "carol", "bob"]);
    expect((await referrals("search=bob")).items.map((r) => r.referralTrackingId)).toEqual([item.bob2, item.bob]);
    expect((await referrals(`search=${item.carol}`)).items.map((r) => [r.referrerId, r.refereeId, r.status])).toEqual([["alice", "carol", "Pending"]]);
    expect((await referrals(`search=${encodeURIComponent("  dave ")}`)).items.map((r) => r.refereeId)).toEqual(["erin"]);
    // The short id the table shows finds the item; otherwise exact: no prefixes, no other case, no other part of an id.
    expect((await referrals(`search=${encodeURIComponent(`${item.carol.slice(0, 8)}…`)}`)).items.map((r) => r.referralTrackingId)).toEqual([item.carol]);
    for (const term of ["ali", "ALICE", "Bob", item.carol.slice(0, 7), item.carol.slice(1, 9), "nobody"]) expect((await referrals(`search=${term}`)).totalCount, term).toBe(0);
  });

  it("filters by status and creation time, together with the search, and pages", async () => {
    expect((await referrals("search=bob&status=failed")).items.map((r) => r.referralTrackingId)).toEqual([item.bob2]);
    expect((await referrals("search=alice&status=Completed")).items.map((r) => r.referralTrackingId)).toEqual([item.bob]);
    const times = (await referrals()).items.map((r) => r.createdAt).sort();
    const [first, last] = [times[0]!, times.at(-1)!];
    expect((await referrals(`from=${first}`)).totalCount).toBe(4);
    expect((await referrals(`to=${first}`)).totalCount).toBe(0);
    expect((await referrals(`from=${encodeURIComponent(new Date(Date.parse(last) + 1).toISOString())}`)).totalCount).toBe(0);
    expect((await referrals(`from=${first}&to=${last}&search=alice`)).items.every((r) => r.createdAt >= first && r.createdAt < last)).toBe(true);
    expect(await referrals("search=alice&page=2&pageSize=2")).toMatchObject({ page: 2, pageSize: 2, totalCount: 3, hasNextPage: false, items: [{ refereeId: "bob" }] });
  });

  it("leaves an app user's own referrals list as it was", async () => {
    const res = await call("GET", `/projects/${projectId}/users/${alice.uniqueId}/referrals?status=Completed`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.items.map((r: Referral) => r.referralTrackingId)).toEqual([item.bob]);
    const bob = (await call("GET", `/projects/${projectId}/users/by-user-id/bob`)).json;
    const received = await call("GET", `/projects/${projectId}/users/${bob.uniqueId}/referrals?direction=received`);
    expect(received.json.items.map((r: Referral) => r.referralTrackingId)).toEqual([item.bob2, item.bob]);
  });

  it("refuses bad input with a problem naming the field", async () => {
    const base = `/projects/${projectId}/referrals`;
    expectProblem(await call("GET", `${base}?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z`), 400, ["from"]);
    expectProblem(await call("GET", `${base}?from=2026-11-01T00:00:00Z&to=2026-11-01T00:00:00Z`), 400, ["from"]);
    expectProblem(await call("GET", `${base}?to=tomorrow`), 400, ["to"]);
    expectProblem(await call("GET", `${base}?status=Done`), 400, ["status"]);
    expectProblem(await call("GET", `${base}?search=%20`), 400, ["search"]);
    expectProblem(await call("GET", `${base}?search=${"x".repeat(256)}`), 400, ["search"]);
  });

  it("answers 404 for another organisation's project, and never matches their ids here", async () => {
    const theirs = await other("GET", `/projects/${projectId}/referrals?search=alice`);
    expectProblem(theirs, 404);
    expect(theirs.json.detail).toBe((await other("GET", "/projects/00000000-0000-0000-0000-000000000000/referrals")).json.detail);
    expectProblem(await call("GET", `/projects/${theirProjectId}/referrals?search=alice`), 404);
    const theirItem = (await other("GET", `/projects/${theirProjectId}/referrals`)).json.items[0].referralTrackingId as string;
    expect((await referrals(`search=${theirItem}`)).totalCount).toBe(0);
  });

  it("exports what the same filter selects", async () => {
    const exported = async (query: string) => {
      const res = await call("GET", `/projects/${projectId}/exports/referrals.csv?${query}`);
      expect(res.status, res.text).toBe(200);
      return res.text.trimEnd().split("\r\n").slice(1).map((line) => line.split(",")[0]);
    };
    expect((await exported("search=bob")).sort()).toEqual([item.bob, item.bob2].sort());
    expect(await exported("search=alice&status=Pending")).toEqual([item.carol]);
    const first = (await referrals()).items.map((r) => r.createdAt).sort()[0]!;
    expect(await exported(`to=${first}`)).toEqual([]);
    expectProblem(await call("GET", `/projects/${projectId}/exports/referrals.csv?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z`), 400, ["from"]);
    expectProblem(await call("GET", `/projects/${projectId}/exports/referrals.csv?search=%20`), 400, ["search"]);
  });
});

describe("GET /projects/{projectId}/reward-events", () => {
  it("lists every reward event newest first, with its outcome, reason, tracking item and parties", async () => {
    const page = await rewardEvents();
    expect(page).toMatchObject({ page: 1, pageSize: 20, totalCount: 4, hasNextPage: false });
    expect(page.items.map((e) => [e.trackingId, e.eventName, e.outcome, e.reason])).toEqual([
      [item.bob2, "purchase", "Rejected", "duplicate_referee"],
      [item.erin, "signup", "Claimed", null],
      [item.carol, "purchase", "Recorded", "event_mismatch"],
      [item.bob, "purchase", "Claimed", null],
    ]);
    expect(page.items[1]).toMatchObject({ referrerId: "dave", refereeId: "erin", refereeUniqueId: expect.any(String) });
    expect(page.items[3]).toMatchObject({ referrerId: "alice", referrerUniqueId: alice.uniqueId, refereeId: "bob" });
  });

  it("finds by a tracking id or either party's client id, exactly, and filters by event, outcome and time", async () => {
    expect((await rewardEvents(`search=${item.carol}`)).items.map((e) => e.outcome)).toEqual(["Recorded"]);
    expect((await rewardEvents("search=bob")).items.map((e) => e.trackingId)).toEqual([item.bob2, item.bob]);
    expect((await rewardEvents("search=alice")).totalCount).toBe(3);
    expect((await rewardEvents("search=erin")).items.map((e) => e.eventName)).toEqual(["signup"]);
    for (const term of ["Alice", "bo", "nobody"]) expect((await rewardEvents(`search=${term}`)).totalCount, term).toBe(0);
    expect((await rewardEvents("event=purchase")).totalCount).toBe(3);
    expect((await rewardEvents("event=Purchase")).totalCount).toBe(0);
    expect((await rewardEvents("outcome=rejected")).items.map((e) => e.trackingId)).toEqual([item.bob2]);
    expect((await rewardEvents("outcome=Claimed&search=alice")).items.map((e) => e.trackingId)).toEqual([item.bob]);
    expect((await rewardEvents("outcome=Claimed&event=purchase&search=dave")).totalCount).toBe(0);
    const times = (await rewardEvents()).items.map((e) => e.at).sort();
    expect((await rewardEvents(`from=${times[0]}`)).totalCount).toBe(4);
    expect((await rewardEvents(`to=${times[0]}`)).totalCount).toBe(0);
    expect((await rewardEvents(`from=${times[1]}&to=${times[3]}`)).items.map((e) => e.at).sort()).toEqual([times[1], times[2]]);
  });

  it("refuses bad input with a problem naming the field", async () => {
    const base = `/projects/${projectId}/reward-events`;
    expectProblem(await call("GET", `${base}?from=2026-11-02T00:00:00Z&to=2026-11-01T00:00:00Z`), 400, ["from"]);
    expectProblem(await call("GET", `${base}?from=last-week`), 400, ["from"]);
    expectProblem(await call("GET", `${base}?outcome=Won`), 400, ["outcome"]);
    expectProblem(await call("GET", `${base}?event=%20`), 400, ["event"]);
    expectProblem(await call("GET", `${base}?pageSize=101`), 400, [["pageSize", "too_big"]]);
  });

  it("answers 404 for another organisation's project, and never matches their ids here", async () => {
    expectProblem(await other("GET", `/projects/${projectId}/reward-events`), 404);
    expectProblem(await call("GET", `/projects/${theirProjectId}/reward-events`), 404);
    expect((await rewardEvents("search=alice")).items.every((e) => e.referrerUniqueId === alice.uniqueId)).toBe(true);
  });
});

describe("GET /projects/{projectId}/activity: search and type", () => {
  it("a tracking id selects that referral's entries", async () => {
    const entries = (await activity(`search=${item.carol}`)).items;
    expect(entries.map((e) => e.type).sort()).toEqual(["event_recorded", "referral_tracked"]);
    expect(entries.every((e) => e.trackingId === item.carol)).toBe(true);
  });

  it("a client id selects the user's own entries and those of their referrals, as referrer or referee", async () => {
    const erin = (await activity("search=erin")).items;
    expect(erin.map((e) => e.type).sort()).toEqual(["referral_tracked", "reward_claimed", "user_created"]);
    expect(erin.filter((e) => e.trackingId).every((e) => e.trackingId === item.erin)).toBe(true);
    const dave = (await activity("search=dave")).items;
    expect(dave.map((e) => e.type).sort()).toEqual(["referral_tracked", "reward_claimed", "user_created"]);
    // "Erin" is no client id here: it is text, found in the entries that name erin.
    expect((await activity("search=Erin")).items.every((e) => /erin/i.test(e.description))).toBe(true);
  });

  it("other text is found in the descriptions, any case, taken literally; with the type filter", async () => {
    expect((await activity("search=EARNED%20A%20REWARD")).items.map((e) => e.type)).toEqual(["reward_claimed", "reward_claimed"]);
    expect((await activity("search=duplicate_referee")).items.map((e) => e.trackingId)).toEqual([item.bob2]);
    expect((await activity("search=%25")).totalCount).toBe(0);
    expect((await activity("type=reward_claimed")).totalCount).toBe(2);
    expect((await activity("type=REWARD_REJECTED")).items.map((e) => e.trackingId)).toEqual([item.bob2]);
    expect((await activity("type=reward_claimed&search=alice")).items.map((e) => e.trackingId)).toEqual([item.bob]);
  });

  it("refuses an unknown type and a blank search, and another organisation's project", async () => {
    expectProblem(await call("GET", `/projects/${projectId}/activity?type=everything`), 400, ["type"]);
    expectProblem(await call("GET", `/projects/${projectId}/activity?search=%20%20`), 400, ["search"]);
    expectProblem(await other("GET", `/projects/${projectId}/activity?search=alice`), 404);
  });
});
