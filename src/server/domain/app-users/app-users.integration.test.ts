import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { z } from "zod";
import { createAppUserBody, listAppUsersQuery } from "@/lib/schemas/app-users";
import { LIST_COUNT_MAX } from "@/lib/schemas/common";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { getAppUser } from "@/server/domain/app-users/get-app-user";
import { getAppUserByClientId } from "@/server/domain/app-users/get-app-user-by-client-id";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { listAppUsers } from "@/server/domain/app-users/list-app-users";
import { ATTRIBUTE_KEYS_SAMPLE_USERS, listAttributeKeys } from "@/server/domain/app-users/list-attribute-keys";
import { updateAppUser } from "@/server/domain/app-users/update-app-user";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { DomainError } from "@/server/domain/errors";
import { createTestDb, type TestDb } from "@/test/db";
import { domainError } from "@/test/expect";
import { createOrgWithProject } from "@/test/fixtures";

let t: TestDb;
let org: string;
let project: string;
let other: { org: string; project: string };

beforeAll(async () => {
  t = await createTestDb();
  const a = await createOrgWithProject(t.db);
  const b = await createOrgWithProject(t.db);
  org = a.org.id;
  project = a.project.id;
  other = { org: b.org.id, project: b.project.id };
});
afterAll(() => t?.drop());

/** A completed item and its reward, `referee` referred by `referrer`, written as a claim leaves them. */
async function rewardedAsReferee(refereeId: string, referrerId: string, claimedAt: Date, grandfathered = false) {
  const { id: campaignId } = await t.db.campaign.findUniqueOrThrow({ where: { projectId: project } });
  const tracking = await t.db.referralTracking.create({
    data: { projectId: project, campaignId, referrerId, refereeId, referralCode: "ABCDEF", status: "Completed", rewardClaimed: true, rewardClaimedAt: claimedAt },
  });
  await t.db.rewardHistory.create({ data: { projectId: project, trackingId: tracking.id, referrerId, refereeId, claimedAt, grandfathered } });
}

describe("createAppUser", () => {
  it("creates the user with a 6-character alphanumeric code and the spec's DTO fields", async () => {
    const user = await createAppUser(t.db, org, project, { clientProvidedId: "create-1", attributes: { plan: "pro" } });
    expect(user).toMatchObject({
      clientProvidedId: "create-1",
      attributes: { plan: "pro" },
      lastSeenAt: null,
      totalReferralsGiven: 0,
      totalReferralsReceived: 0,
      successfulReferrals: 0,
      status: "Active",
      referredBy: null,
    });
    expect(user.referralCode).toMatch(/^[A-Za-z0-9]{6}$/);
    expect(user.uniqueId).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Date(user.firstSeenAt).toISOString()).toBe(user.firstSeenAt);
    const activity = await t.db.activity.findMany({ where: { appUserId: user.uniqueId } });
    expect(activity.map((a) => a.type)).toEqual(["user_created"]);
  });

  it("refuses a client id already used in the project with a conflict, and writes nothing", async () => {
    await createAppUser(t.db, org, project, { clientProvidedId: "dup" });
    const error = await domainError(createAppUser(t.db, org, project, { clientProvidedId: "dup" }));
    expect(error.kind).toBe("conflict");
    expect(error.issues[0]?.field).toBe("clientProvidedId");
    expect(await t.db.appUser.count({ where: { projectId: project, clientProvidedId: "dup" } })).toBe(1);
  });

  it("lets another project use the same client id", async () => {
    await createAppUser(t.db, org, project, { clientProvidedId: "shared-id" });
    const user = await createAppUser(t.db, other.org, other.project, { clientProvidedId: "shared-id" });
    expect(user.clientProvidedId).toBe("shared-id");
  });

  it("gives concurrent creations of one client id exactly one success", async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => createAppUser(t.db, org, project, { clientProvidedId: "race-create" })),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    for (const r of results) if (r.status === "rejected") expect((r.reason as DomainError).kind).toBe("conflict");
  });

  it.each([
    [{ clientProvidedId: "" }, "clientProvidedId"],
    [{ clientProvidedId: "   " }, "clientProvidedId"],
    [{ clientProvidedId: "x".repeat(256) }, "clientProvidedId"],
    [{ clientProvidedId: "ok", attributes: { n: 1 } as unknown as Record<string, string> }, "attributes.n"],
    [{ clientProvidedId: "ok", attributes: ["a"] as unknown as Record<string, string> }, "attributes"],
    [{ clientProvidedId: "ok", attributes: { "": "v" } }, "attributes."],
  ])("the body schema rejects %j naming the field", (input, field) => {
    expect(createAppUserBody.safeParse(input).error?.issues[0]?.path.join(".")).toBe(field);
  });

  it("is not_found for another organisation's project", async () => {
    const error = await domainError(createAppUser(t.db, org, other.project, { clientProvidedId: "foreign" }));
    expect(error.kind).toBe("not_found");
  });
});

describe("getAppUser, getAppUserByClientId, updateAppUser", () => {
  it("finds a user by uniqueId and by client id, and 404s across projects and organisations", async () => {
    const user = await createAppUser(t.db, org, project, { clientProvidedId: "Find-Me" });
    expect(await getAppUser(t.db, org, project, user.uniqueId)).toEqual(user);
    expect(await getAppUserByClientId(t.db, org, project, "Find-Me")).toEqual(user);
    expect((await domainError(getAppUserByClientId(t.db, org, project, "find-me"))).kind).toBe("not_found");
    expect((await domainError(getAppUser(t.db, org, project, "no-such-id"))).kind).toBe("not_found");
    expect((await domainError(getAppUser(t.db, other.org, other.project, user.uniqueId))).kind).toBe("not_found");
    expect((await domainError(getAppUser(t.db, other.org, project, user.uniqueId))).kind).toBe("not_found");
  });

  it("tells an unknown or foreign project from an unknown user by client id, and reads the referrer's client id", async () => {
    const referrer = await createAppUser(t.db, org, project, { clientProvidedId: "by-client-referrer" });
    const user = await createAppUser(t.db, org, project, { clientProvidedId: "by-client", attributes: { plan: "pro" } });
    await rewardedAsReferee(user.uniqueId, referrer.uniqueId, new Date());
    expect(await getAppUserByClientId(t.db, org, project, "by-client")).toEqual({ ...user, referredBy: "by-client-referrer" });
    expect((await domainError(getAppUserByClientId(t.db, org, project, "nobody"))).message).toMatch(/^App user/);
    for (const [organizationId, projectId] of [[other.org, project], [org, other.project], [org, "00000000-0000-0000-0000-000000000000"]]) {
      const error = await domainError(getAppUserByClientId(t.db, organizationId!, projectId!, "by-client"));
      expect(error.kind).toBe("not_found");
      expect(error.message).toMatch(/^Project/);
    }
  });

  it("shows as referredBy the referrer of the user's first reward as referee, on every read", async () => {
    const [first, second, user] = await Promise.all(
      ["first-referrer", "second-referrer", "referred-twice"].map((clientProvidedId) => createAppUser(t.db, org, project, { clientProvidedId })),
    );
    expect((await getAppUser(t.db, org, project, user!.uniqueId)).referredBy).toBeNull();
    // A referee is rewarded once, but one rewarded twice before the farming rules keeps both rewards.
    await rewardedAsReferee(user!.uniqueId, second!.uniqueId, new Date("2026-02-01T00:00:00Z"));
    await rewardedAsReferee(user!.uniqueId, first!.uniqueId, new Date("2026-01-01T00:00:00Z"), true);
    const reads = [
      await getAppUser(t.db, org, project, user!.uniqueId),
      await getAppUserByClientId(t.db, org, project, "referred-twice"),
      (await listAppUsers(t.db, org, project, listAppUsersQuery.parse({ search: "referred-twice" }))).items[0],
      (await listAppUsers(t.db, org, project, listAppUsersQuery.parse({ sortBy: "createdAt", sortOrder: "desc" }))).items.find((u) => u.uniqueId === user!.uniqueId),
    ];
    expect(reads.map((u) => u?.referredBy)).toEqual(Array(4).fill("first-referrer"));
  });

  it("replaces the whole attributes map", async () => {
    const user = await createAppUser(t.db, org, project, { clientProvidedId: "upd", attributes: { a: "1", b: "2" } });
    const updated = await updateAppUser(t.db, org, project, { uniqueId: user.uniqueId, attributes: { c: "3" } });
    expect(updated.attributes).toEqual({ c: "3" });
    expect((await getAppUser(t.db, org, project, user.uniqueId)).attributes).toEqual({ c: "3" });
    const cleared = await updateAppUser(t.db, org, project, { uniqueId: user.uniqueId, attributes: {} });
    expect(cleared.attributes).toEqual({});
  });

  it("does not update another organisation's user", async () => {
    const user = await createAppUser(t.db, org, project, { clientProvidedId: "upd-foreign", attributes: { a: "1" } });
    const error = await domainError(updateAppUser(t.db, other.org, other.project, { uniqueId: user.uniqueId, attributes: {} }));
    expect(error.kind).toBe("not_found");
    expect((await getAppUser(t.db, org, project, user.uniqueId)).attributes).toEqual({ a: "1" });
  });
});

describe("getOrCreateAppUser", () => {
  it("creates on first sight, finds afterwards, marks the user seen, and replaces attributes only when given", async () => {
    const first = await getOrCreateAppUser(t.db, project, { clientProvidedId: "seen", attributes: { a: "1" } });
    expect(first.created).toBe(true);
    expect(first.user.lastSeenAt).not.toBeNull();
    const again = await getOrCreateAppUser(t.db, project, { clientProvidedId: "seen", attributes: { a: "2" } });
    expect(again.created).toBe(false);
    expect(again.user.id).toBe(first.user.id);
    expect(again.user.attributes).toEqual({ a: "2" });
    expect(again.user.lastSeenAt!.getTime()).toBeGreaterThanOrEqual(first.user.lastSeenAt!.getTime());
    expect((await getOrCreateAppUser(t.db, project, { clientProvidedId: "seen" })).user.attributes).toEqual({ a: "2" });
  });

  it("yields one user under concurrent first calls", async () => {
    const results = await Promise.all(
      Array.from({ length: 12 }, () => getOrCreateAppUser(t.db, project, { clientProvidedId: "race-goc" })),
    );
    expect(new Set(results.map((r) => r.user.id)).size).toBe(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(await t.db.appUser.count({ where: { projectId: project, clientProvidedId: "race-goc" } })).toBe(1);
  });
});

describe("listAppUsers", () => {
  let listOrg: string;
  let listProject: string;
  beforeAll(async () => {
    const p = await createOrgWithProject(t.db);
    listOrg = p.org.id;
    listProject = p.project.id;
    const base = Date.UTC(2026, 0, 1);
    // 25 users with distinct, known values for every sort field.
    for (let i = 0; i < 25; i++) {
      const user = await createAppUser(t.db, listOrg, listProject, {
        clientProvidedId: `user-${String(i).padStart(2, "0")}${i % 5 === 0 ? "-VIP" : ""}`,
        attributes: { city: i % 2 ? "Oslo" : "Lima" },
      });
      await t.db.appUser.update({
        where: { id: user.uniqueId },
        data: {
          createdAt: new Date(base + i * 60_000),
          firstSeenAt: new Date(base - i * 60_000),
          lastSeenAt: i % 3 === 0 ? null : new Date(base + ((i * 7) % 25) * 60_000),
          counters: { update: { successfulReferrals: i % 4, totalReferralsGiven: i % 4 === 0 ? 0 : i } },
        },
      });
    }
  });
  const list = (input: z.input<typeof listAppUsersQuery>) => listAppUsers(t.db, listOrg, listProject, listAppUsersQuery.parse(input));
  const ids = (page: { items: { clientProvidedId: string }[] }) => page.items.map((u) => u.clientProvidedId);

  it("pages with the envelope and defaults (page 1, 20 items, newest first)", async () => {
    const page1 = await list({});
    expect(page1).toMatchObject({ page: 1, pageSize: 20, totalCount: 25, hasNextPage: true });
    expect(page1.items).toHaveLength(20);
    expect(page1.items[0]!.clientProvidedId).toBe("user-24");
    const page2 = await list({ page: 2 });
    expect(page2).toMatchObject({ page: 2, totalCount: 25, hasNextPage: false });
    expect(page2.items).toHaveLength(5);
    expect(new Set([...ids(page1), ...ids(page2)]).size).toBe(25);
    const beyond = await list({ page: 9 });
    expect(beyond).toMatchObject({ items: [], totalCount: 25, hasNextPage: false });
    expect(await list({ pageSize: 25 })).toMatchObject({ hasNextPage: false });
    expect(await list({ pageSize: 24 })).toMatchObject({ hasNextPage: true });
  });

  it.each([
    [{ page: 0 }, "page"],
    [{ page: 1.5 }, "page"],
    [{ pageSize: 0 }, "pageSize"],
    [{ pageSize: 101 }, "pageSize"],
    [{ sortBy: "attributes" }, "sortBy"],
    [{ sortOrder: "up" }, "sortOrder"],
    [{ search: "x".repeat(101) }, "search"],
  ])("the query schema rejects %j naming the field", (input, field) => {
    expect(listAppUsersQuery.safeParse(input).error?.issues[0]?.path).toEqual([field]);
  });

  it("accepts page size 100", async () => {
    expect((await list({ pageSize: 100 })).items).toHaveLength(25);
  });

  it.each([
    ["createdAt", (i: number) => i],
    ["firstSeenAt", (i: number) => -i],
    ["clientProvidedId", (i: number) => i],
    ["successfulReferrals", (i: number) => i % 4],
    ["totalReferralsGiven", (i: number) => (i % 4 === 0 ? 0 : i)],
  ] as const)("sorts by %s both ways, case-insensitively", async (sortBy, key) => {
    const asc = await list({ sortBy: sortBy.toUpperCase(), sortOrder: "ASC", pageSize: 100 });
    const values = asc.items.map((u) => key(Number(u.clientProvidedId.slice(5, 7))));
    expect(values).toEqual([...values].sort((a, b) => a - b));
    const desc = await list({ sortBy, sortOrder: "desc", pageSize: 100 });
    expect(ids(desc)).toEqual(ids(asc).reverse());
  });

  it("sorts by lastSeenAt with never-seen users last in both directions", async () => {
    for (const sortOrder of ["asc", "desc"]) {
      const page = await list({ sortBy: "lastSeenAt", sortOrder, pageSize: 100 });
      const seen = page.items.map((u) => u.lastSeenAt);
      const firstNull = seen.indexOf(null);
      expect(firstNull).toBe(25 - 9);
      expect(seen.slice(firstNull).every((s) => s === null)).toBe(true);
      const times = seen.slice(0, firstNull).map((s) => Date.parse(s!));
      const sorted = [...times].sort((a, b) => a - b);
      expect(times).toEqual(sortOrder === "asc" ? sorted : sorted.reverse());
    }
  });

  it("pages stably when many users tie on the sort field", async () => {
    const pages = await Promise.all([1, 2, 3, 4, 5].map((page) => list({ sortBy: "successfulReferrals", page, pageSize: 5 })));
    expect(new Set(pages.flatMap(ids)).size).toBe(25);
  });

  it("searches client ids case-insensitively by substring and referral codes exactly", async () => {
    expect(ids(await list({ search: "vip", pageSize: 100 })).sort()).toEqual([
      "user-00-VIP",
      "user-05-VIP",
      "user-10-VIP",
      "user-15-VIP",
      "user-20-VIP",
    ]);
    const target = (await list({ search: "user-13" })).items[0]!;
    const byCode = await list({ search: target.referralCode });
    expect(ids(byCode)).toContain("user-13");
    expect((await list({ search: "  user-13  " })).totalCount).toBe(1);
    expect((await list({ search: "%" })).totalCount).toBe(0);
    expect((await list({ search: "_" })).totalCount).toBe(0);
    expect((await list({ search: "\\" })).totalCount).toBe(0);
    expect((await list({ search: "" })).totalCount).toBe(25);
  });

  it("filters by hasReferrals and combines filters with search", async () => {
    const withReferrals = await list({ hasReferrals: "true", pageSize: 100 });
    expect(withReferrals.totalCount).toBe(18);
    expect(withReferrals.items.every((u) => u.totalReferralsGiven > 0)).toBe(true);
    const without = await list({ hasReferrals: "false", pageSize: 100 });
    expect(without.totalCount).toBe(7);
    expect((await list({ hasReferrals: "true", search: "vip" })).totalCount).toBe(3);
  });

  it("matches % and _ in a search literally", async () => {
    await createAppUser(t.db, org, project, { clientProvidedId: "promo_50%" });
    await createAppUser(t.db, org, project, { clientProvidedId: "promoX50Y" });
    const found = await listAppUsers(t.db, org, project, listAppUsersQuery.parse({ search: "O_50%" }));
    expect(ids(found)).toEqual(["promo_50%"]);
  });

  it("pages a search the same whether it matches a few users or more than it sorts itself", async () => {
    const { org: bigOrg, project: big } = await createOrgWithProject(t.db);
    // 10,050 users "bulk-00001" ...; "bulk-" matches all (over the 10,000 the sorted-matches path
    // takes), "bulk-01" a thousand, "bulk-0000" nine.
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "createdAt", "updatedAt")
      SELECT ${big.id} || '-' || n, ${big.id}, 'bulk-' || lpad(n::text, 5, '0'), lpad(n::text, 6, 'x'),
        timestamp '2026-01-01' + n * interval '1 minute', now()
      FROM generate_series(1, 10050) AS n`;
    const search = (term: string, page = 1, sortOrder = "desc") =>
      listAppUsers(t.db, bigOrg.id, big.id, listAppUsersQuery.parse({ search: term, page, pageSize: 20, sortBy: "createdAt", sortOrder }));
    const all = await search("bulk-", 3);
    // More than the count's cap: it says so, and hasNextPage stays exact to the last page.
    expect(all).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    expect(ids(all)).toEqual(Array.from({ length: 20 }, (_, i) => `bulk-${String(10_050 - 40 - i).padStart(5, "0")}`));
    const some = await search("BULK-01", 2, "asc");
    expect(some.totalCount).toBe(1_000);
    expect(ids(some)[0]).toBe("bulk-01020");
    const few = await search("bulk-0000");
    expect(ids(few)).toEqual(["bulk-00009", "bulk-00008", "bulk-00007", "bulk-00006", "bulk-00005", "bulk-00004", "bulk-00003", "bulk-00002", "bulk-00001"]);
    expect((await search("bulk-0000", 2)).items).toEqual([]);
    expect((await search("bulk-0000", 2)).totalCount).toBe(9);
    expect(await search("bulk-0000")).toMatchObject({ totalCountExact: true, hasNextPage: false });
    const last = await search("bulk-", 503);
    expect(last).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: false });
    expect(ids(last)).toEqual(Array.from({ length: 10 }, (_, i) => `bulk-${String(10 - i).padStart(5, "0")}`));
    expect(await search("bulk-", 502)).toMatchObject({ hasNextPage: true });
    expect(await search("bulk-", 504)).toMatchObject({ items: [], hasNextPage: false });
    // Unfiltered, the project's users are counted up to the cap too.
    const unfiltered = await listAppUsers(t.db, bigOrg.id, big.id, listAppUsersQuery.parse({}));
    expect(unfiltered).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    expect(ids(unfiltered)[0]).toBe("bulk-10050");
  });

  it("sorts and filters by the counters alike whether a search sorts its matches or walks the counters' index", async () => {
    const { org: bigOrg, project: big } = await createOrgWithProject(t.db);
    // As above: "count-" matches all 10,050 (the index walk), "count-0" 9,999 (sorted as matched).
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt")
      SELECT ${big.id} || '-' || n, ${big.id}, 'count-' || lpad(n::text, 5, '0'), lpad(n::text, 6, 'z'), now()
      FROM generate_series(1, 10050) AS n`;
    await t.db.$executeRaw`
      UPDATE "AppUserCounters" SET "successfulReferrals" = n % 7, "totalReferralsGiven" = n % 3
      FROM generate_series(1, 10050) AS n WHERE "appUserId" = ${big.id} || '-' || n`;
    // What each page must hold, read plainly from both tables.
    const expected = (term: string, page: number) =>
      t.db.$queryRaw<{ clientProvidedId: string }[]>`
        SELECT u."clientProvidedId" FROM "AppUser" u JOIN "AppUserCounters" c ON c."appUserId" = u."id"
        WHERE u."projectId" = ${big.id} AND u."clientProvidedId" LIKE ${`${term}%`} AND c."totalReferralsGiven" > 0
        ORDER BY c."successfulReferrals" DESC, u."id" DESC LIMIT 20 OFFSET ${(page - 1) * 20}`;
    for (const term of ["count-", "count-0"]) {
      for (const page of [1, 7]) {
        const query = { search: term, page, pageSize: 20, sortBy: "successfulReferrals", sortOrder: "desc", hasReferrals: "true" };
        const found = await listAppUsers(t.db, bigOrg.id, big.id, listAppUsersQuery.parse(query));
        expect(ids(found)).toEqual((await expected(term, page)).map((u) => u.clientProvidedId));
        expect(found.items.every((u) => u.totalReferralsGiven > 0)).toBe(true);
      }
      const [counted] = await t.db.$queryRaw<{ n: number }[]>`
        SELECT count(*)::int AS n FROM "AppUser" u JOIN "AppUserCounters" c ON c."appUserId" = u."id"
        WHERE u."projectId" = ${big.id} AND u."clientProvidedId" LIKE ${`${term}%`} AND c."totalReferralsGiven" > 0`;
      expect((await listAppUsers(t.db, bigOrg.id, big.id, listAppUsersQuery.parse({ search: term, hasReferrals: "true" }))).totalCount).toBe(counted!.n);
    }
  });

  // PGlite has no pgstattuple to read the pending list with.
  it.skipIf(!inject("templateDatabase"))("keeps the trigram index's pending list to a few pages, which every search reads, however many users arrive", async () => {
    const { project: busy } = await createOrgWithProject(t.db);
    await t.db.$executeRaw`CREATE EXTENSION IF NOT EXISTS pgstattuple`;
    const pendingPages = async () => {
      const [row] = await t.db.$queryRaw<{ pages: number }[]>`
        SELECT pending_pages AS "pages" FROM pgstatginindex('"AppUser_clientProvidedId_trgm_idx"')`;
      return row!.pages;
    };
    // 5,000 new users and 5,000 non-HOT updates (an indexed column changes) each add an entry: with
    // GIN's default 4 MB limit they would sit in about 400 pending pages until a vacuum.
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt")
      SELECT ${busy.id} || '-' || n, ${busy.id}, 'arrival-' || lpad(n::text, 7, '0'), lpad(n::text, 6, 'y'), now()
      FROM generate_series(1, 5000) AS n`;
    await t.db.$executeRaw`UPDATE "AppUser" SET "lastSeenAt" = now() WHERE "projectId" = ${busy.id}`;
    expect(await pendingPages()).toBeLessThanOrEqual(8);
  });

  it("is not_found for another organisation", async () => {
    expect((await domainError(listAppUsers(t.db, org, listProject, listAppUsersQuery.parse({})))).kind).toBe("not_found");
    const searched = await domainError(listAppUsers(t.db, org, listProject, listAppUsersQuery.parse({ search: "a" })));
    expect(searched.kind).toBe("not_found");
  });
});

describe("the attribute filter and the attribute keys", () => {
  it("pages an attribute filter the same whether it matches a few users or more than it sorts itself", async () => {
    const { org: bigOrg, project: big } = await createOrgWithProject(t.db);
    // 10,050 users: tier "all" for everyone (over the 10,000 the sorted-matches path takes), "rare" for
    // every thousandth, "even" for half; another project of the organisation holds the same pairs.
    const { project: twin } = await createOrgWithProject(t.db);
    for (const p of [big.id, twin.id]) {
      await t.db.$executeRaw`
        INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "attributes", "createdAt", "updatedAt")
        SELECT ${p} || '-' || n, ${p}, 'attr-' || lpad(n::text, 5, '0'), lpad(n::text, 6, 'w'),
          jsonb_build_object('all', 'yes', 'tier', CASE WHEN n % 1000 = 0 THEN 'rare' ELSE 'common' END, 'even', (n % 2 = 0)::text),
          timestamp '2026-01-01' + n * interval '1 minute', now()
        FROM generate_series(1, 10050) AS n`;
    }
    const filter = (attributeKey: string, attributeValue: string, extra: object = {}) =>
      listAppUsers(t.db, bigOrg.id, big.id, listAppUsersQuery.parse({ attributeKey, attributeValue, pageSize: 20, ...extra }));
    const names = (page: { items: { clientProvidedId: string }[] }) => page.items.map((u) => u.clientProvidedId);

    const all = await filter("all", "yes", { page: 3 });
    expect(all).toMatchObject({ totalCount: LIST_COUNT_MAX, totalCountExact: false, hasNextPage: true });
    expect(names(all)).toEqual(Array.from({ length: 20 }, (_, i) => `attr-${String(10_050 - 40 - i).padStart(5, "0")}`));
    const rare = await filter("tier", "rare", { sortBy: "clientProvidedId", sortOrder: "asc" });
    expect(rare).toMatchObject({ totalCount: 10, hasNextPage: false });
    expect(names(rare)).toEqual(Array.from({ length: 10 }, (_, i) => `attr-${String((i + 1) * 1000).padStart(5, "0")}`));
    const even = await filter("even", "true", { page: 2, sortOrder: "asc" });
    expect(even).toMatchObject({ totalCount: 5_025, totalCountExact: true });
    expect(names(even)[0]).toBe("attr-00042");
    expect((await filter("tier", "Rare")).totalCount).toBe(0);
    // With the search: both must hold.
    expect(names(await filter("tier", "rare", { search: "attr-0200" }))).toEqual(["attr-02000"]);
    // Another organisation's project is not found, with or without matches.
    expect((await domainError(listAppUsers(t.db, org, big.id, listAppUsersQuery.parse({ attributeKey: "all", attributeValue: "yes" })))).kind).toBe("not_found");
    expect((await domainError(listAppUsers(t.db, org, big.id, listAppUsersQuery.parse({ attributeKey: "x", attributeValue: "none" })))).kind).toBe("not_found");
  });

  it("offers the distinct keys of the project's newest users, A to Z", async () => {
    const { org: o, project: p } = await createOrgWithProject(t.db);
    expect(await listAttributeKeys(t.db, o.id, p.id)).toEqual([]);
    // The oldest user's key is beyond the sample of the newest ATTRIBUTE_KEYS_SAMPLE_USERS.
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "attributes", "createdAt", "updatedAt")
      SELECT ${p.id} || '-' || n, ${p.id}, 'keys-' || n, lpad(n::text, 6, 'k'),
        CASE WHEN n = 0 THEN '{"ancient": "x"}'::jsonb WHEN n % 2 = 0 THEN '{"plan": "pro", "Ünïcödé ✓": "y"}'::jsonb ELSE '{"country": "DE", "plan": "free"}'::jsonb END,
        timestamp '2026-01-01' + n * interval '1 minute', now()
      FROM generate_series(0, ${ATTRIBUTE_KEYS_SAMPLE_USERS}::int) AS n`;
    expect(await listAttributeKeys(t.db, o.id, p.id)).toEqual(["country", "plan", "Ünïcödé ✓"].sort());
    expect((await domainError(listAttributeKeys(t.db, org, p.id))).kind).toBe("not_found");
  });
});

describe("the counters row (AppUserCounters)", () => {
  it("exists for every user from its creation, whichever way it was created, and goes with it", async () => {
    const { org: o, project: p } = await createOrgWithProject(t.db);
    const referrer = await createAppUser(t.db, o.id, p.id, { clientProvidedId: "counted-created" });
    await getOrCreateAppUser(t.db, p.id, { clientProvidedId: "counted-first-sight" });
    await trackReferral(t.db, o.id, p.id, { referralCode: referrer.referralCode, refereeId: "counted-referee" });
    await t.db.$executeRaw`
      INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt")
      VALUES (${p.id} || '-raw', ${p.id}, 'counted-raw', 'RAW001', now())`;
    const rows = await t.db.$queryRaw<{ clientProvidedId: string; projectId: string | null; given: number | null }[]>`
      SELECT u."clientProvidedId", c."projectId", c."totalReferralsGiven" AS "given"
      FROM "AppUser" u LEFT JOIN "AppUserCounters" c ON c."appUserId" = u."id" WHERE u."projectId" = ${p.id} ORDER BY 1`;
    expect(rows).toEqual([
      { clientProvidedId: "counted-created", projectId: p.id, given: 1 },
      { clientProvidedId: "counted-first-sight", projectId: p.id, given: 0 },
      { clientProvidedId: "counted-raw", projectId: p.id, given: 0 },
      { clientProvidedId: "counted-referee", projectId: p.id, given: 0 },
    ]);
    // Sorted by a counter, the list walks the counters' index: a user without a row would be missing.
    const sorted = await listAppUsers(t.db, o.id, p.id, listAppUsersQuery.parse({ sortBy: "totalReferralsGiven", sortOrder: "desc" }));
    const sortedIds = sorted.items.map((u) => u.clientProvidedId);
    expect(sortedIds[0]).toBe("counted-created");
    expect(sortedIds.toSorted()).toEqual(rows.map((r) => r.clientProvidedId));
    expect(sorted.totalCount).toBe(4);

    await t.db.appUser.delete({ where: { id: `${p.id}-raw` } });
    expect(await t.db.appUserCounters.count({ where: { appUserId: `${p.id}-raw` } })).toBe(0);
  });
});
