import type { Db } from "@/server/db/client";
import type { RewardEnvironment } from "@/generated/prisma/client";
import { insertRewardDeliveries } from "@/server/domain/deliveries/insert-reward-deliveries";
import type { RewardPayload } from "@/server/domain/deliveries/reward-payload";
import { randomAlphanumeric } from "@/server/domain/tokens";
import { createWebhook } from "@/server/domain/webhooks/create-webhook";
import type { CreateWebhookInput } from "@/server/domain/webhooks/webhook-write";
import { testConfig } from "./config";
import { createOrgWithProject } from "./fixtures";
import { startReceiver } from "./webhook-receiver";

export type RewardSetup = Awaited<ReturnType<typeof createRewardSetup>>;

/** An organisation, project, campaign and two app users, ready to grant rewards with webhooks. */
export async function createRewardSetup(db: Db) {
  const ctx = await createOrgWithProject(db);
  const [referrer, referee] = await Promise.all(
    ["referrer", "referee"].map((name) =>
      db.appUser.create({
        data: { projectId: ctx.project.id, clientProvidedId: `${name}-${randomAlphanumeric(6)}`, referralCode: randomAlphanumeric(6) },
      }),
    ),
  );
  return { ...ctx, referrer: referrer!, referee: referee! };
}

/** A fresh reward setup and a receiver to point its webhooks at (for beforeEach; close the receiver after). */
export async function createRewardSetupWithReceiver(db: Db) {
  const setup = await createRewardSetup(db);
  const receiver = await startReceiver();
  return { setup, receiver };
}

export async function addWebhook(db: Db, setup: RewardSetup, input: Partial<CreateWebhookInput> & { url: string }) {
  return createWebhook(
    db,
    setup.org.id,
    setup.project.id,
    setup.campaign.id,
    { name: "Receiver", secret: "whsec-test-" + randomAlphanumeric(16), enabled: true, environment: "Both", ...input },
    testConfig().urlRules,
  );
}

/**
 * A Completed tracking item with its outbox rows, written directly (not through the reward path), for
 * tests of what happens to deliveries after a reward.
 */
export async function insertCompletedReward(db: Db, setup: RewardSetup, environment: RewardEnvironment | null = null, event = "purchase") {
  const tracking = await db.referralTracking.create({
    data: {
      projectId: setup.project.id,
      campaignId: setup.campaign.id,
      referrerId: setup.referrer.id,
      refereeId: setup.referee.id,
      referralCode: setup.referrer.referralCode,
      status: "Completed",
      rewardClaimed: true,
      rewardClaimedAt: new Date(),
    },
  });
  const payload: RewardPayload = {
    event,
    referrerId: setup.referrer.clientProvidedId,
    refereeId: setup.referee.clientProvidedId,
    rewardClaimedAt: tracking.rewardClaimedAt!.toISOString(),
    trackingId: tracking.id,
    rewardStatus: "Completed",
    projectId: setup.project.id,
    projectName: setup.project.name,
    campaignId: setup.campaign.id,
  };
  const rows = await db.$queryRaw<{ id: string }[]>(insertRewardDeliveries(payload, environment, tracking, { at: new Date() }));
  const deliveryIds = rows.map((r) => r.id);
  return { tracking, payload, deliveryIds };
}

/** A Pending tracking item from the setup's referrer to a new referee of its own, so that each can be rewarded. */
export async function insertPendingItem(db: Db, setup: RewardSetup) {
  const referee = await db.appUser.create({
    data: { projectId: setup.project.id, clientProvidedId: `referee-${randomAlphanumeric(8)}`, referralCode: randomAlphanumeric(6) },
  });
  return db.referralTracking.create({
    data: {
      projectId: setup.project.id,
      campaignId: setup.campaign.id,
      referrerId: setup.referrer.id,
      refereeId: referee.id,
      referralCode: setup.referrer.referralCode,
    },
  });
}

/** Ends every Pending delivery, so one test's leftovers are not sent by the next test's worker. */
export async function settleAllDeliveries(db: Db) {
  await db.delivery.updateMany({ where: { status: "Pending" }, data: { status: "Failed", lastError: "test cleanup" } });
}

export async function attemptsOf(db: Db, deliveryId: string) {
  return db.deliveryAttempt.findMany({ where: { deliveryId }, orderBy: { attemptNumber: "asc" } });
}
