import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, withClient, type TestDb } from "@/test/db";
import { createOrgWithProject } from "@/test/fixtures";
import { countTopReferrers, topReferrersByBound } from "./top-referrers";
import { statsWindow } from "./stats-window";

/*
 * The bounded walk against counting every reward, on rewards placed by hand: referrer `r<i>` has the
 * rewards listed for it, each on the day given (2026-01-01 plus the number), at noon. The counters are
 * what the claims would have left (one per reward).
 */
const REWARDS: Record<string, number[]> = {
  r1: [0, 1, 2, 3, 40, 41], // all-time leader, mostly early
  r2: [5, 6, 7, 8, 9],
  r3: [30, 31, 32, 33],
  r4: [10, 34, 35],
  r5: [36, 37, 38],
  r6: [39, 39],
  r7: [20],
  r8: [21],
};

let t: TestDb;
let projectId: string;
const win = (from: string, to: string) => statsWindow({ from, to });

beforeAll(async () => {
  t = await createTestDb();
  const { project, campaign } = await createOrgWithProject(t.db);
  projectId = project.id;
  await withClient(t.url!, async (c) => {
    let n = 0;
    for (const [referrer, days] of Object.entries(REWARDS)) {
      const { rows } = await c.query<{ id: string }>(
        `INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt") VALUES (gen_random_uuid()::text, $1, $2, $3, now()) RETURNING "id"`,
        [projectId, referrer, `CODE${referrer}`],
      );
      const referrerId = rows[0]!.id;
      for (const day of days) {
        n++;
        const claimedAt = new Date(Date.UTC(2026, 0, 1 + day, 12));
        await c.query(
          `WITH referee AS (
             INSERT INTO "AppUser" ("id", "projectId", "clientProvidedId", "referralCode", "updatedAt") VALUES (gen_random_uuid()::text, $1, $3, $4, now()) RETURNING "id"
           ), item AS (
             INSERT INTO "ReferralTracking" ("id", "projectId", "campaignId", "referrerId", "refereeId", "referralCode", "status", "rewardClaimed", "rewardClaimedAt", "createdAt", "updatedAt")
             SELECT gen_random_uuid()::text, $1, $5, $2, referee."id", 'ABCDEF', 'Completed', true, $6, $6, $6 FROM referee RETURNING "id", "refereeId"
           )
           INSERT INTO "RewardHistory" ("id", "projectId", "trackingId", "referrerId", "refereeId", "eventName", "claimedAt")
           SELECT gen_random_uuid()::text, $1, item."id", $2, item."refereeId", 'purchase', $6 FROM item`,
          [projectId, referrerId, `referee-${n}`, `REF${n}`, campaign.id, claimedAt],
        );
      }
    }
  });
});

afterAll(() => t.drop());

const names = (top: { clientProvidedId: string; rewards: number }[] | null) => top?.map((r) => `${r.clientProvidedId}:${r.rewards}`);

describe("the top referrers of a window", () => {
  it("counts every reward per referrer, both ends of the window's days included", async () => {
    expect(names(await countTopReferrers(t.db, projectId, win("2026-01-01", "2026-02-28"), 3))).toEqual(["r1:6", "r2:5", "r3:4"]);
    // 2026-01-31 to 2026-02-04 are days 30 to 34.
    expect(names(await countTopReferrers(t.db, projectId, win("2026-01-31", "2026-02-04"), 3))).toEqual(["r3:4", "r4:1"]);
  });

  it("answers from the all-time leaders when the last place beats every referrer not read", async () => {
    const all = win("2026-01-01", "2026-02-28");
    // Leaders read: r1 (6), r2 (5), r3 (4), r4 (3); no other referrer has more than 3, and the third place has 4.
    expect(names(await topReferrersByBound(t.db, projectId, all, 3, 4))).toEqual(["r1:6", "r2:5", "r3:4"]);
    expect(await topReferrersByBound(t.db, projectId, all, 3, 4)).toEqual(await countTopReferrers(t.db, projectId, all, 3));
  });

  it("gives up when a referrer not read could still tie or beat the last place", async () => {
    // Third place r4 with 3 rewards; r5, not read, has 3 too: a tie it may win on its id.
    expect(await topReferrersByBound(t.db, projectId, win("2026-01-01", "2026-02-28"), 4, 4)).toBeNull();
    // The leaders earned little in this window (days 30 to 41): r3 4, r1 2, r4 2, r2 0, and r5 (not read) 3.
    expect(await topReferrersByBound(t.db, projectId, win("2026-01-31", "2026-02-11"), 3, 4)).toBeNull();
  });

  it("answers when every referrer with a reward was read, however few have one in the window", async () => {
    const window = win("2026-01-21", "2026-01-22"); // days 20 and 21: r7 and r8 only
    const bounded = await topReferrersByBound(t.db, projectId, window, 3, 50);
    expect(names(bounded)).toEqual(names(await countTopReferrers(t.db, projectId, window, 3)));
    expect(bounded).toHaveLength(2);
  });

  it("agrees with counting every reward wherever it answers", async () => {
    let answered = 0;
    for (let from = 0; from <= 41; from += 3) {
      for (const length of [1, 7, 15, 45]) {
        const day = (d: number) => new Date(Date.UTC(2026, 0, 1 + d)).toISOString().slice(0, 10);
        const window = win(day(from), day(from + length - 1));
        for (const leaders of [2, 4, 8]) {
          const bounded = await topReferrersByBound(t.db, projectId, window, 2, leaders);
          if (bounded === null) continue;
          answered++;
          expect(bounded, `${day(from)} +${length} days, ${leaders} leaders`).toEqual(await countTopReferrers(t.db, projectId, window, 2));
        }
      }
    }
    expect(answered).toBeGreaterThan(20);
  });
});
