import { appUserEventsQuery, DEFAULT_USER_EVENTS_LIMIT } from "@/lib/schemas/app-users";
import { pagingQuery } from "@/lib/schemas/common";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "@/server/domain/activity/list-activity";
import { listAppUserEvents } from "@/server/domain/activity/list-app-user-events";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { createTestDb, type TestDb } from "@/test/db";
import { domainError } from "@/test/expect";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";

let t: TestDb;
let f: OrgWithProject;
let other: OrgWithProject;
let alice: Awaited<ReturnType<typeof createAppUser>>;

beforeAll(async () => {
  t = await createTestDb();
  f = await createOrgWithProject(t.db);
  other = await createOrgWithProject(t.db);
  alice = await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "alice" });
  await trackReferral(t.db, f.org.id, f.project.id, { referralCode: alice.referralCode, refereeId: "bob" });
  // 21 more project-level entries, one second apart, for paging.
  const base = Date.now() + 60_000;
  for (let i = 0; i < 21; i++) {
    await recordActivity(t.db, { projectId: f.project.id, appUserId: null, type: "event_recorded", description: `entry ${i}` });
  }
  const rows = await t.db.activity.findMany({ where: { description: { startsWith: "entry " } } });
  for (const row of rows) {
    await t.db.activity.update({ where: { id: row.id }, data: { createdAt: new Date(base + Number(row.description.slice(6)) * 1000) } });
  }
});
afterAll(() => t?.drop());

describe("listActivity", () => {
  it("pages the project's activity newest first", async () => {
    const page1 = await listActivity(t.db, f.org.id, f.project.id, pagingQuery.parse({ pageSize: 10 }));
    expect(page1).toMatchObject({ page: 1, pageSize: 10, totalCount: 24, hasNextPage: true });
    expect(page1.items[0]).toEqual({
      id: expect.any(String),
      type: "event_recorded",
      description: "entry 20",
      appUserId: null,
      trackingId: null,
      createdAt: expect.any(String),
    });
    const page3 = await listActivity(t.db, f.org.id, f.project.id, pagingQuery.parse({ pageSize: 10, page: 3 }));
    expect(page3.hasNextPage).toBe(false);
    expect(page3.items.map((i) => i.type).sort()).toEqual(["event_recorded", "referral_tracked", "user_created", "user_created"]);
    expect((await listActivity(t.db, other.org.id, other.project.id, pagingQuery.parse({}))).totalCount).toBe(0);
  });

  it("rejects bad paging and foreign projects", async () => {
    expect(pagingQuery.safeParse({ page: 0 }).error?.issues[0]?.path).toEqual(["page"]);
    expect((await domainError(listActivity(t.db, other.org.id, f.project.id, pagingQuery.parse({})))).kind).toBe("not_found");
  });
});

describe("listAppUserEvents", () => {
  it("lists one user's timeline newest first with the AppUserEventDto fields", async () => {
    const events = await listAppUserEvents(t.db, f.org.id, f.project.id, { uniqueId: alice.uniqueId, limit: DEFAULT_USER_EVENTS_LIMIT });
    expect(events.map((e) => e.type)).toEqual(["referral_tracked", "user_created"]);
    expect(Object.keys(events[0]!).sort()).toEqual(["createdAt", "description", "id", "type"]);
    expect(events[0]!.description).toContain("bob");
    expect(await listAppUserEvents(t.db, f.org.id, f.project.id, { uniqueId: alice.uniqueId, limit: 1 })).toHaveLength(1);
  });

  it("rejects a bad limit and 404s unknown or foreign users", async () => {
    for (const limit of [0, 101]) expect(appUserEventsQuery.safeParse({ limit }).error?.issues[0]?.path).toEqual(["limit"]);
    expect((await domainError(listAppUserEvents(t.db, f.org.id, f.project.id, { uniqueId: "nope", limit: DEFAULT_USER_EVENTS_LIMIT }))).kind).toBe("not_found");
    const foreign = listAppUserEvents(t.db, other.org.id, other.project.id, { uniqueId: alice.uniqueId, limit: DEFAULT_USER_EVENTS_LIMIT });
    expect((await domainError(foreign)).kind).toBe("not_found");
  });
});
