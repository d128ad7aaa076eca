import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LIST_COUNT_MAX } from "@/lib/schemas/common";
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

describe("the count of a search that matches many", () => {
  type CountedPage = { items: { clientProvidedId: string }[]; totalCount: number; totalCountExact: boolean; hasNextPage: boolean };
  const page = async (search: string, query = "", client = call, project = projectId) => {
    const res = await client("GET", `/projects/${project}/users?search=${encodeURIComponent(search)}&pageSize=100${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json as CountedPage;
  };
  // People made in SQL, each group found by the start of its e-mail, its name or both (each part of
  // the search reads one index: the count must deduplicate across them and stop at the cap). Their
  // client ids are the prefix backwards, so that the client-id part finds none of them.
  const seed = (project: string, prefix: string, from: number, to: number, email: boolean, name: boolean) => t.db.$executeRaw`
    INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "attributes", "createdAt", "updatedAt")
    SELECT md5(${project} || ${prefix} || n)::uuid::text, ${project}, reverse(${prefix}) || '-' || n, upper(left(${prefix}, 1)) || lpad(n::text, 5, '0'),
      jsonb_strip_nulls(jsonb_build_object('email', CASE WHEN ${email} THEN ${prefix} || '.' || n || '@example.org' END, 'name', CASE WHEN ${name} THEN initcap(${prefix}) || ' ' || n END)),
      timestamp '2026-01-01' + n * interval '1 second', now()
    FROM generate_series(${from}::int, ${to}::int) AS n`;
  beforeAll(async () => {
    await seed(projectId, "crowd", 1, LIST_COUNT_MAX + 1, true, true);
    await seed(projectId, "pair", 1, 6_000, true, true);
    await seed(projectId, "mix", 1, 6_000, true, false);
    await seed(projectId, "mix", 6_001, 11_000, false, true);
    await seed(projectId, "duo", 1, 6_000, true, false);
    // The same people in another project of the organisation: never counted in this one's.
    await seed(sibling, "duo", 1, 5_000, true, false);
    await seed(sibling, "crowd", 1, 5, true, true);
  });

  it("counts up to the cap, says when it stopped, and keeps hasNextPage exact", async () => {
    expect(await page("CROWD")).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    // Matched by e-mail (6,000) or by name (5,000): each part under the cap, together over it.
    const mix = await page("mix");
    expect(mix).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    expect(mix.items[0]!.clientProvidedId).toBe("xim-11000");
    const last = await page("mix", "&page=110");
    expect(last).toMatchObject({ totalCountExact: false, hasNextPage: false });
    expect(last.items.map((u) => u.clientProvidedId)).toEqual(Array.from({ length: 100 }, (_, i) => `xim-${100 - i}`));
    expect(await page("mix", "&page=109")).toMatchObject({ hasNextPage: true });
  });

  it("counts a user matched by both e-mail and name once", async () => {
    expect(await page("pair")).toMatchObject({ totalCount: 6_000, totalCountExact: true, hasNextPage: true });
    expect(await page("Pair 59")).toMatchObject({ totalCount: 111, totalCountExact: true });
    expect(await page("pair", "&page=60")).toMatchObject({ totalCount: 6_000, hasNextPage: false });
  });

  it("counts its own project's users only", async () => {
    expect(await page("duo")).toMatchObject({ totalCount: 6_000, totalCountExact: true });
    expect(await page("duo", "", call, sibling)).toMatchObject({ totalCount: 5_000, totalCountExact: true });
    const theirCrowd = await page("crowd", "", call, sibling);
    expect(theirCrowd).toMatchObject({ totalCount: 5, totalCountExact: true, hasNextPage: false });
    expect(theirCrowd.items.map((u) => u.clientProvidedId).sort()).toEqual(["dworc-1", "dworc-2", "dworc-3", "dworc-4", "dworc-5"]);
  });
});

describe("the count of the referral lists", () => {
  let many: string;
  let referrer: { uniqueId: string; clientProvidedId: string };
  type CountedPage = { items: { referralTrackingId: string }[]; totalCount: number; totalCountExact: boolean; hasNextPage: boolean };
  const list = async (path: string, query: string, client = call) => {
    const res = await client("GET", `/projects/${many}/${path}?pageSize=100${query}`);
    expect(res.status, res.text).toBe(200);
    return res.json as CountedPage;
  };
  beforeAll(async () => {
    many = await createProjectOverRest(call, "Many referrals");
    const campaignId = (await call("GET", `/projects/${many}/campaign`)).json.campaignId as string;
    referrer = await createAppUserOverRest(call, many, "hub");
    // One more arrival than the cap through one referrer's code, every 1,000th Failed; newest last.
    await t.db.$executeRaw`
      INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "referralCode", "status", "failureReason", "createdAt", "updatedAt")
      SELECT md5(${many} || ':' || n)::uuid::text, ${many}, ${campaignId}, ${referrer.uniqueId}, 'HUB001',
        (CASE WHEN n % 1000 = 0 THEN 'Failed' ELSE 'Pending' END)::"TrackingStatus", CASE WHEN n % 1000 = 0 THEN 'expired' END, timestamp '2026-01-01' + n * interval '1 second', now()
      FROM generate_series(1, ${LIST_COUNT_MAX + 1}::int) AS n`;
  });

  it("counts the project's referrals up to the cap, says when it stopped, and keeps hasNextPage exact", async () => {
    expect(await list("referrals", "")).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    const last = await list("referrals", "&page=101");
    expect(last).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: false });
    expect(last.items).toHaveLength(1);
    expect(await list("referrals", "&page=100")).toMatchObject({ hasNextPage: true });
    expect(await list("referrals", "&status=Failed")).toMatchObject({ totalCount: 10, totalCountExact: true, hasNextPage: false });
    // A search naming the referrer names all their referrals.
    expect(await list("referrals", "&search=hub")).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: true });
  });

  it("counts an app user's referrals the same way", async () => {
    const given = await list(`users/${referrer.uniqueId}/referrals`, "&direction=given&page=101");
    expect(given).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: false });
    expect(given.items).toHaveLength(1);
    expect(await list(`users/${referrer.uniqueId}/referrals`, "&direction=received")).toMatchObject({ totalCount: 0, totalCountExact: true, hasNextPage: false });
  });

  it("counts a project's own referrals only", async () => {
    // The first project's one referral, beside the 10,001 here.
    const res = await call("GET", `/projects/${projectId}/referrals`);
    expect(res.json).toMatchObject({ totalCount: 1, totalCountExact: true, hasNextPage: false });
  });
});
