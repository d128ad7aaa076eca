/**
 * The app killed with SIGKILL in the middle of a 10,000-delivery backlog, then started again.
 * Expected: every delivery reaches the receiver (counted once per delivery id: an attempt cut off
 * mid-flight may arrive twice, which receivers deduplicate), none beyond 5 attempts.
 */
import { epochNow } from "../harness/paced-load";
import { seedDeliveryBacklog, seedReferrers } from "../harness/seed-sql";
import { check, sleep, type Drill } from "./drill";
import { DrillEnv } from "./environment";
import { deliveryFacts } from "./invariants";

const BACKLOG = Number(process.env.DRILLS_BACKLOG ?? 10_000);
/** Killed once this share of the backlog has arrived. */
const KILL_AT_SHARE = 0.3;
/**
 * The receiver's answer time: long enough that the worker holds its full share of leases when it is
 * killed (a receiver answering at once leaves almost nothing in flight, and the dead worker's leases,
 * the case this drill is for, would go untested), short enough to drain the backlog in seconds.
 */
const RECEIVER_DELAY_MS = 50;
/** Waiting for the rest after the restart (includes the dead worker's leases: 10 s budget + 30 s margin). */
const FINISH_TIMEOUT_MS = 300_000;

export const sigkillBacklog: Drill = {
  name: "sigkill-backlog",
  summary: `SIGKILL in the middle of a ${BACKLOG.toLocaleString("en")}-delivery backlog, restart: every delivery arrives, none beyond 5 attempts`,
  async run(log) {
    const env = await DrillEnv.create({ name: "sigkill-backlog", webhooks: { hook: { delayMs: RECEIVER_DELAY_MS } } }, log);
    try {
      await seedReferrers(env.db, env.project.id, 100, "ref_");
      log(`  inserting ${BACKLOG.toLocaleString("en")} due deliveries ...`);
      await seedDeliveryBacklog(env.db, {
        projectId: env.project.id,
        campaignId: env.project.campaignId,
        webhookId: env.webhookIds.hook!,
        referrers: 100,
        count: BACKLOG,
        first: 1_000_001,
        refereePrefix: "blog_",
      });
      const insertedAt = epochNow();
      const killAt = Math.round(BACKLOG * KILL_AT_SHARE);
      const before = await env.receiver.waitFor((s) => s.deliveries >= killAt, 180_000);
      if (before.timedOut) throw new Error(`Only ${before.stats.deliveries} deliveries arrived in 180 s; nothing to interrupt.`);
      const [{ leased }] = (await env.query<{ leased: string }>(
        `SELECT count(*) AS leased FROM "Delivery" WHERE "status" = 'Pending' AND "leasedUntil" > now()`,
      )) as [{ leased: string }];
      await env.app.kill();
      const killedAt = epochNow();
      const atKill = await env.receiver.stats();
      log(`  killed the app (SIGKILL) after ${atKill.deliveries} deliveries, ${leased} leased; restarting ...`);
      await sleep(1_000);
      await env.startApp(0);
      const restartedAt = epochNow();
      const after = await env.receiver.waitFor((s) => s.deliveries >= BACKLOG, FINISH_TIMEOUT_MS, 250);
      const allArrivedAt = epochNow();
      const pending = await env.waitForDeliveries(60_000);
      const facts = await deliveryFacts(env);
      const records = await env.receiver.records();
      const received = new Set(records.map((r) => r.deliveryId));
      const lastArrival = Math.max(...records.map((r) => r.at));
      const ids = (await env.query<{ id: string }>(`SELECT "id" FROM "Delivery"`)).map((r) => r.id);
      const missing = ids.filter((id) => !received.has(id));
      const stats = after.stats;
      return {
        figures: {
          backlog: BACKLOG,
          receivedBeforeKill: atKill.deliveries,
          leasedAtKill: Number(leased),
          rateBeforeKillPerS: Math.round(atKill.deliveries / ((killedAt - insertedAt) / 1000)),
          restartMs: Math.round(restartedAt - killedAt),
          restOfBacklogS: Math.round((allArrivedAt - restartedAt) / 1000),
          // The dead worker's leased deliveries wait for their lease (10 s budget + 30 s margin) to pass.
          lastArrivalAfterKillS: Math.round((lastArrival - killedAt) / 1000),
          distinctReceived: stats.deliveries,
          requests: stats.requests,
          duplicates: stats.requests - stats.deliveries,
          deliveries: facts,
          pendingAfterWait: pending,
        },
        checks: [
          check(
            "the kill cut attempts off mid-flight",
            Number(leased) > 0,
            `${leased} deliveries leased by the killed worker, taken over after their lease`,
          ),
          check(
            "every delivery reaches the receiver",
            missing.length === 0 && ids.length === BACKLOG,
            `${stats.deliveries} of ${ids.length} delivery ids received (${stats.requests - stats.deliveries} duplicate requests, deduplicated by delivery id)` +
              (after.timedOut ? `; gave up after ${FINISH_TIMEOUT_MS / 1000} s` : `; the rest arrived ${((allArrivedAt - restartedAt) / 1000).toFixed(0)} s after the restart`),
          ),
          check(
            "none beyond 5 attempts",
            facts.maxAttemptCount <= 5 && facts.maxLoggedAttempt <= 5,
            `at most ${facts.maxAttemptCount} attempts per delivery (log: attempt ${facts.maxLoggedAttempt}); ${facts.lostAttemptEntries} attempts logged as cut off by the dead worker`,
          ),
          check(
            "every delivery ends Succeeded",
            facts.succeeded === BACKLOG,
            `${facts.succeeded} succeeded, ${facts.pending} pending, ${facts.failed} failed`,
          ),
        ],
      };
    } catch (error) {
      log(env.serverLogs());
      throw error;
    } finally {
      await env.destroy();
    }
  },
};
