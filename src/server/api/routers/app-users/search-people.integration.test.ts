import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { createAppUserOverRest, createProjectOverRest, restClientForNewOrg, trackOverRest, type RestClient } from "@/test/rest";

/*
 * Search by what people know: app users by the start of their e-mail or name attribute (any case),
 * and referrals and deliveries by either party's e-mail, over REST; each project's search sees its own
 * users only, and another organisation's project is a 404.
 */

let t: TestDb;
let call: RestClient;
let other: RestClient;
let projectId: string;
let sibling: string;
let theirs: string;
const tracking: Record<string, string> = {};

type Page<T> = { items: T[]; totalCount: number };
const get = async <T>(client: RestClient, project: string, path: string, search: string) => {
  const res = await client("GET", `/projects/${project}/${path}?search=${encodeURIComponent(search)}&pageSize=100`);
  expect(res.status, res.text).toBe(200);
  return res.json as Page<T>;
};
const users = async (search: string, client = call, project = projectId) =>
  (await get<{ clientProvidedId: string }>(client, project, "users", search)).items.map((u) => u.clientProvidedId).sort();

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  other = await restClientForNewOrg(t.db);
  projectId = await createProjectOverRest(call, "People");
  sibling = await createProjectOverRest(call, "Sibling");
  theirs = await createProjectOverRest(other, "Theirs");
  const campaignId = (await call("GET", `/projects/${projectId}/campaign`)).json.campaignId;
  // Deliveries are written with each reward (nothing sends them in this file).
  await call("POST", `/projects/${projectId}/webhooks/${campaignId}`, { body: { name: "Hook", url: "https://hooks.example.com/r" } });

  const alice = await createAppUserOverRest(call, projectId, "u-1", { email: "Alice.Smith@Example.com", name: "Alice Smith" });
  await createAppUserOverRest(call, projectId, "u-2", { email: "alicia@example.org", name: "Alicia Keys" });
  await createAppUserOverRest(call, projectId, "u-3", { email: "bob@example.org", name: "Bob Stone" });
  await createAppUserOverRest(call, projectId, "u-4", { email: "50%_off@example.org", plan: "alice" });
  await createAppUserOverRest(call, projectId, "carol-1", { email: "carol@example.net" });
  // The same people elsewhere: another project of the organisation, and another organisation.
  await createAppUserOverRest(call, sibling, "s-1", { email: "alice.smith@example.com", name: "Alice Smith" });
  const theirAlice = await createAppUserOverRest(other, theirs, "t-1", { email: "alice.smith@example.com", name: "Alice Smith" });
  await createAppUserOverRest(other, theirs, "t-2", { email: "carol@example.net" });
  await trackOverRest(other, theirs, theirAlice, "t-2");

  tracking.carol = (await trackOverRest(call, projectId, alice, "carol-1")).trackingId;
  const reward = await call("POST", `/projects/${projectId}/referrals/reward`, { body: { ReferralTrackingId: tracking.carol, EventName: "purchase" } });
  expect(reward.json.rewardClaimed, reward.text).toBe(true);
});
afterAll(async () => {
  await t.drop();
});

describe("app users by e-mail or name", () => {
  it("matches the start of the email or name attribute, in any case", async () => {
    expect(await users("alice")).toEqual(["u-1"]);
    expect(await users("ALIC")).toEqual(["u-1", "u-2"]);
    expect(await users("alice.smith@example.COM")).toEqual(["u-1"]);
    expect(await users("alicia k")).toEqual(["u-2"]);
    expect(await users("Bob S")).toEqual(["u-3"]);
    // The client id still matches anywhere in it, any case; the code exactly.
    expect(await users("U-")).toEqual(["u-1", "u-2", "u-3", "u-4"]);
  });

  it("matches starts only, takes wildcards literally, and reads no other attribute", async () => {
    expect(await users("smith")).toEqual([]);
    expect(await users("example.org")).toEqual([]);
    expect(await users("50%_")).toEqual(["u-4"]);
    expect(await users("5_%")).toEqual([]);
    expect(await users("%")).toEqual([]);
    expect(await users("_")).toEqual([]);
    // `plan` is not searched: u-4's plan "alice" is no name.
    expect(await users("alice")).not.toContain("u-4");
  });

  it("sees its own project's users only, and is a 404 for another organisation", async () => {
    expect(await users("alice.smith", call, sibling)).toEqual(["s-1"]);
    expect(await users("alice.smith", other, theirs)).toEqual(["t-1"]);
    const refused = await other("GET", `/projects/${projectId}/users?search=alice`);
    expect(refused.status).toBe(404);
    expect(refused.text).not.toContain("u-1");
  });

  it("the CSV export takes the same search", async () => {
    const res = await call("GET", `/projects/${projectId}/exports/app-users.csv?search=${encodeURIComponent("ALICE.")}`);
    expect(res.status, res.text).toBe(200);
    expect(res.text).toContain("u-1");
    expect(res.text).not.toContain("u-2");
  });
});

describe("referrals and deliveries by either party's e-mail", () => {
  it("finds a referral by the referrer's or the referee's e-mail, in any case, whole", async () => {
    for (const email of ["alice.smith@example.com", "CAROL@example.net"]) {
      const page = await get<{ referralTrackingId: string }>(call, projectId, "referrals", email);
      expect(page.items.map((r) => r.referralTrackingId), email).toEqual([tracking.carol]);
    }
    expect((await get(call, projectId, "referrals", "carol@example")).totalCount).toBe(0);
    expect((await get(call, projectId, "referrals", "bob@example.org")).totalCount).toBe(0);
  });

  it("finds the deliveries of those referrals the same way", async () => {
    const page = await get<{ trackingId: string; refereeId: string }>(call, projectId, "deliveries", "carol@example.NET");
    expect(page.items.map((d) => [d.trackingId, d.refereeId])).toEqual([[tracking.carol!, "carol-1"]]);
    expect((await get(call, projectId, "deliveries", "Alice.Smith@Example.com")).totalCount).toBe(1);
  });

  it("never finds another organisation's referral with the same e-mail, and refuses its project", async () => {
    const mine = await get<{ referralTrackingId: string }>(call, projectId, "referrals", "carol@example.net");
    const theirsFound = await get<{ referralTrackingId: string }>(other, theirs, "referrals", "carol@example.net");
    expect(theirsFound.items).toHaveLength(1);
    expect(theirsFound.items[0]!.referralTrackingId).not.toBe(mine.items[0]!.referralTrackingId);
    expect((await other("GET", `/projects/${projectId}/referrals?search=carol%40example.net`)).status).toBe(404);
    expect((await other("GET", `/projects/${projectId}/deliveries?search=carol%40example.net`)).status).toBe(404);
  });
});
