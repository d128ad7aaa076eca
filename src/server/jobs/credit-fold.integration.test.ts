import { afterAll, beforeAll, expect, it } from "vitest";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject } from "@/test/fixtures";
import { waitUntil } from "@/test/wait";
import { startCreditFold, stopCreditFold } from "./credit-fold";

let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(async () => {
  await stopCreditFold();
  await t.drop();
});

it("the credit fold job folds a reward's credit into its referrer's counter, again after each interval", async () => {
  const f = await createOrgWithProject(t.db);
  const { user } = await getOrCreateAppUser(t.db, f.project.id, { clientProvidedId: "ada" });
  const reward = async (refereeId: string) => {
    const { referralTrackingId } = await trackReferral(t.db, f.org.id, f.project.id, { referralCode: user.referralCode, refereeId });
    expect((await grantReward(t.db, f.org.id, f.project.id, { referralTrackingId })).rewardClaimed).toBe(true);
  };
  const folded = () => t.db.appUserCounters.findUniqueOrThrow({ where: { appUserId: user.id } }).then((c) => c.successfulReferrals);
  await reward("grace");
  startCreditFold({ db: async () => t.db, intervalMs: 20 });
  await waitUntil(folded, (n) => n === 1, { what: "the first credit folded" });
  await reward("linus");
  await waitUntil(folded, (n) => n === 2, { what: "the second credit folded" });
  expect(await t.db.referralCredit.count({ where: { appUserId: user.id } })).toBe(0);
  await stopCreditFold();
});
