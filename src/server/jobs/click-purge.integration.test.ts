import { InngestTestEngine } from "@inngest/test";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAppUser } from "@/server/domain/app-users/create-app-user";
import { buildClickFingerprint } from "@/server/domain/attribution/build-fingerprint";
import { purgeExpiredClicks } from "@/server/domain/attribution/purge-expired-clicks";
import { recordLinkClick } from "@/server/domain/attribution/record-link-click";
import { updateCampaign } from "@/server/domain/campaigns/update-campaign";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject } from "@/test/fixtures";
import { waitUntil } from "@/test/wait";
import { CLICK_PURGE_CRON, startClickPurge, stopClickPurge } from "./click-purge";
import { createPurgeClicksFunction } from "./purge-clicks-function";

const MINUTE = 60_000;
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

/** A Mobile project with clicks `minutesAgo` old (relative to `now`); their ids in the same order. */
async function projectWithClicks(now: Date, minutesAgo: number[], matchWindowMinutes?: number) {
  const f = await createOrgWithProject(t.db, { appType: "Mobile" });
  if (matchWindowMinutes) await updateCampaign(t.db, f.org.id, f.project.id, { matchWindowMinutes });
  const { referralCode } = await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "ada" });
  const ids: string[] = [];
  for (const minutes of minutesAgo) {
    const clickId = crypto.randomUUID();
    const createdAt = new Date(now.getTime() - minutes * MINUTE);
    const fingerprint = buildClickFingerprint({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)", ip: "203.0.113.7", payload: null, createdAt });
    await recordLinkClick(t.db, { clickId, projectId: f.project.id, referralCode, rewardEventName: null, fingerprint, userAgent: null });
    ids.push(clickId);
  }
  return ids;
}
const remaining = async (ids: string[]) => (await t.db.linkClick.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((c) => c.id).sort();

describe("purgeExpiredClicks", () => {
  it("deletes clicks older than their campaign's window, matched or not, and keeps the rest", async () => {
    const now = new Date();
    const [fresh, old, older] = await projectWithClicks(now, [119, 121, 60 * 25]);
    await t.db.linkClick.update({ where: { id: old }, data: { matchedAt: now } });
    const [inShort, pastShort] = await projectWithClicks(now, [9, 11], 10);
    const [inLong, pastLong] = await projectWithClicks(now, [23 * 60, 24 * 60 + 1], 1440);
    const deleted = await purgeExpiredClicks(t.db, now);
    expect(deleted).toBeGreaterThanOrEqual(4);
    expect(await remaining([fresh!, old!, older!, inShort!, pastShort!, inLong!, pastLong!])).toEqual([fresh!, inShort!, inLong!].sort());
    expect(await purgeExpiredClicks(t.db, now)).toBe(0);
  });

  it("keeps each day's click count (the overview's funnel) after the clicks are gone; a repeated beacon counts once", async () => {
    const now = new Date("2026-10-02T00:30:00.000Z");
    const f = await createOrgWithProject(t.db, { appType: "Mobile" });
    const { referralCode } = await createAppUser(t.db, f.org.id, f.project.id, { clientProvidedId: "ada" });
    const click = (clickId: string, minutesAgo: number) => {
      const createdAt = new Date(now.getTime() - minutesAgo * MINUTE);
      const fingerprint = buildClickFingerprint({ userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X)", ip: "203.0.113.7", payload: null, createdAt });
      return recordLinkClick(t.db, { clickId, projectId: f.project.id, referralCode, rewardEventName: null, fingerprint, userAgent: null });
    };
    const repeated = crypto.randomUUID();
    expect(await click(repeated, 10)).toBe("recorded");
    expect(await click(repeated, 10)).toBe("duplicate");
    await click(crypto.randomUUID(), 30);
    await click(crypto.randomUUID(), 31);
    await click(crypto.randomUUID(), 60 * 24 + 31);
    await purgeExpiredClicks(t.db, new Date(now.getTime() + 2 * 24 * 60 * MINUTE));
    expect(await t.db.linkClick.count({ where: { projectId: f.project.id } })).toBe(0);
    const days = await t.db.linkClickDay.findMany({ where: { projectId: f.project.id }, orderBy: { day: "asc" } });
    expect(days.map((d) => [d.day.toISOString().slice(0, 10), d.clicks])).toEqual([
      ["2026-09-30", 1],
      ["2026-10-01", 1],
      ["2026-10-02", 2],
    ]);
  });
});

describe("the two schedulers of the purge", () => {
  it("embedded: a timer in the server or worker process purges at start and on its interval", async () => {
    const now = new Date();
    const [fresh, old] = await projectWithClicks(now, [1, 200]);
    startClickPurge({ db: async () => t.db, config: testConfig(), intervalMs: 50 });
    try {
      await waitUntil(() => remaining([fresh!, old!]), (ids) => ids.length === 1, { what: "the old click purged" });
      const [later] = await projectWithClicks(now, [300]);
      await waitUntil(() => remaining([later!]), (ids) => ids.length === 0, { what: "the next interval's purge" });
      expect(await remaining([fresh!])).toEqual([fresh]);
    } finally {
      await stopClickPurge();
    }
  });

  it("embedded: stays off when Inngest schedules it", async () => {
    const now = new Date();
    const [old] = await projectWithClicks(now, [200]);
    startClickPurge({ db: async () => t.db, config: testConfig({ INNGEST_DEV: "1" }), intervalMs: 10 });
    await stopClickPurge();
    expect(await remaining([old!])).toEqual([old]);
  });

  it("Inngest: a cron function running the same purge", async () => {
    const now = new Date();
    const [fresh, old] = await projectWithClicks(now, [1, 200]);
    const fn = createPurgeClicksFunction({ db: async () => t.db });
    expect(fn.opts.triggers).toEqual([{ cron: CLICK_PURGE_CRON }]);
    const { result } = await new InngestTestEngine({ function: fn }).execute();
    expect((result as { deleted: number }).deleted).toBeGreaterThanOrEqual(1);
    expect(await remaining([fresh!, old!])).toEqual([fresh]);
  });
});
