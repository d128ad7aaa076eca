/**
 * Reward throughput: Pending tracking items (one distinct referrer/referee pair each) in a project
 * whose campaign has two enabled webhooks, claimed through grantReward, then through the REST handler.
 */
import { getConfig } from "@/server/config";
import type { Db } from "@/server/db/client";
import { createProject } from "@/server/domain/projects/create-project";
import { grantReward } from "@/server/domain/referrals/grant-reward";
import type { RewardOutcome } from "@/server/domain/referrals/reward-context";
import { trackReferral } from "@/server/domain/referrals/track-referral";
import { createWebhook } from "@/server/domain/webhooks/create-webhook";
import { createOrgWithApiKey, restClient } from "@/test/rest";
import { captureQueries, statementLabel } from "./capture-queries";
import { startBackendCpuMeter } from "./cpu";
import { adminUrl, withClient } from "./postgres";
import { seedAppUsers, seededReferralCode } from "./seed";
import { runPool, type PoolRun } from "./stats";
import { foldCredits } from "@/server/domain/referrals/referral-credits";

export const WEBHOOKS_PER_CAMPAIGN = 2;
const REWARD_INPUT = { eventName: "purchase", environment: "Production" } as const;

export type RewardSizes = { warmup: number; domain: number; rest: number; concurrency: number };

export type RewardFixture = { organizationId: string; projectId: string; apiKey: string; trackingIds: string[] };

/** A pool run plus the CPU its PostgreSQL backends used (null when that cannot be read). */
export type MeasuredRun = PoolRun & { postgresCpuMs: number | null };

async function measuredPool<T>(url: string, items: readonly T[], concurrency: number, fn: (item: T) => Promise<unknown>): Promise<MeasuredRun> {
  const stopBackendMeter = await startBackendCpuMeter(adminUrl(), new URL(url).pathname.slice(1));
  const run = await runPool(items, concurrency, fn);
  return { ...run, postgresCpuMs: await stopBackendMeter() };
}

/**
 * The project, its webhooks and referrers (bulk SQL), then one Pending item per referrer through the
 * real trackReferral (which creates the referee): its run is measured too.
 */
export async function prepareRewardItems(db: Db, url: string, count: number, concurrency: number) {
  const { org, apiKey } = await createOrgWithApiKey(db);
  const { project } = await createProject(db, org.id, {
    name: "Bench rewards",
    appType: "Web",
    referralRedirectLink: "https://app.example.com/join",
  }, getConfig().urlRules);
  for (let i = 1; i <= WEBHOOKS_PER_CAMPAIGN; i++) {
    await createWebhook(db, org.id, project.id, project.campaign!.id, {
      name: `Bench receiver ${i}`,
      url: `https://hooks.example.com/bench-${i}`,
      secret: `whsec_bench_${i}`,
      enabled: true,
      environment: "Both",
    }, getConfig().urlRules);
  }
  await withClient(url, (c) => seedAppUsers(c, project.id, count, "referrer-"));
  const trackingIds: string[] = new Array(count);
  const rows = Array.from({ length: count }, (_, i) => i);
  const track = await measuredPool(url, rows, concurrency, async (i) => {
    const item = await trackReferral(db, org.id, project.id, { referralCode: seededReferralCode(i + 1), refereeId: `referee-${i + 1}` });
    trackingIds[i] = item.referralTrackingId;
  });
  throwIfErrors("trackReferral", track);
  const fixture: RewardFixture = { organizationId: org.id, projectId: project.id, apiKey, trackingIds };
  return { fixture, track };
}

/** Items one run needs: one whose statements are captured, then the warm-up, domain and REST items. */
export const rewardItemCount = (sizes: RewardSizes) => 1 + sizes.warmup + sizes.domain + sizes.rest;

export type RewardRuns = {
  /** The statements one claim sends, in order ("UPDATE ReferralTracking", ...), COMMIT included. */
  statements: string[];
  warmup: PoolRun;
  domain: MeasuredRun;
  rest: MeasuredRun;
};

export async function measureRewards(db: Db, url: string, f: RewardFixture, sizes: RewardSizes): Promise<RewardRuns> {
  const [probeId, ...ids] = f.trackingIds;
  const successfulBefore = await sumSuccessfulReferrals(db, f.projectId);
  const grant = (client: Db, referralTrackingId: string) =>
    grantReward(client, f.organizationId, f.projectId, { referralTrackingId, ...REWARD_INPUT }).then(expectClaimed);
  const captured = await captureQueries(url, (logging) => grant(logging, probeId!));
  const warmupIds = ids.slice(0, sizes.warmup);
  const domainIds = ids.slice(sizes.warmup, sizes.warmup + sizes.domain);
  const restIds = ids.slice(sizes.warmup + sizes.domain, sizes.warmup + sizes.domain + sizes.rest);

  const viaDomain = (referralTrackingId: string) => grant(db, referralTrackingId);
  const call = restClient(db, f.apiKey);
  const viaRest = async (referralTrackingId: string) => {
    const res = await call("POST", `/projects/${f.projectId}/referrals/reward`, {
      body: { ReferralTrackingId: referralTrackingId, EventName: REWARD_INPUT.eventName, Environment: REWARD_INPUT.environment },
    });
    if (res.status !== 200) throw new Error(`REST reward answered ${res.status}: ${res.text}`);
    expectClaimed(res.json as RewardOutcome);
  };

  const warmup = await runPool(warmupIds, sizes.concurrency, viaDomain);
  const domain = await measuredPool(url, domainIds, sizes.concurrency, viaDomain);
  const rest = await measuredPool(url, restIds, sizes.concurrency, viaRest);
  for (const [name, run] of Object.entries({ warmup, domain, rest })) throwIfErrors(`grantReward (${name})`, run);
  await verifyOutcome(db, f.projectId, 1 + warmupIds.length + domainIds.length + restIds.length, successfulBefore);
  return { statements: captured.map((q) => statementLabel(q.sql)), warmup, domain, rest };
}

function expectClaimed(result: RewardOutcome) {
  if (!result.rewardClaimed) throw new Error(`Reward not claimed for ${result.referralTrackingId}: ${result.reason}`);
}

/** Every claim left exactly its rows: one history entry, the counters, one outbox row per webhook. */
async function verifyOutcome(db: Db, projectId: string, claimed: number, successfulBefore: number) {
  const [completed, history, deliveries, successful] = await Promise.all([
    db.referralTracking.count({ where: { projectId, status: "Completed", rewardClaimed: true } }),
    db.rewardHistory.count({ where: { projectId } }),
    db.delivery.count({ where: { projectId, status: "Pending" } }),
    sumSuccessfulReferrals(db, projectId),
  ]);
  const expected = { completed: claimed, history: claimed, deliveries: claimed * WEBHOOKS_PER_CAMPAIGN, successfulAdded: claimed };
  const actual = { completed, history, deliveries, successfulAdded: successful - successfulBefore };
  if (JSON.stringify(actual) !== JSON.stringify(expected)) {
    throw new Error(`Reward rows do not add up: expected ${JSON.stringify(expected)}, found ${JSON.stringify(actual)}.`);
  }
}

async function sumSuccessfulReferrals(db: Db, projectId: string) {
  // The credits the server has not folded yet count too (referral-credits.ts).
  await foldCredits(db, { wait: true });
  const { _sum } = await db.appUserCounters.aggregate({ where: { projectId }, _sum: { successfulReferrals: true } });
  return _sum.successfulReferrals ?? 0;
}

function throwIfErrors(what: string, run: PoolRun) {
  if (run.errors.length === 0) return;
  throw new Error(`${what}: ${run.errors.length} call(s) failed; first: ${String(run.errors[0])}`, { cause: run.errors[0] });
}
