/**
 * Two app instances on one database under load: rewards sent to both, plus a backlog both workers
 * compete for, with a receiver that fails the first attempt of about 30% of the deliveries (so retries
 * are claimed again, by either instance) and workers polling every 100 ms. Expected: no delivery
 * attempt is sent twice: the receiver sees exactly as many requests per delivery as attempts recorded.
 */
import { runPaced } from "../harness/paced-load";
import { seedDeliveryBacklog, seedPendingItems, seedReferrers } from "../harness/seed-sql";
import { check, statusSummary, type Drill } from "./drill";
import { DrillEnv } from "./environment";
import { deliveryFacts, rewardViolations } from "./invariants";

const BACKLOG = 3_000;
const RATE_PER_INSTANCE = 10;
const LOAD_S = 20;

export const twoInstances: Drill = {
  name: "two-instances",
  summary: "two app instances on one database under load: no delivery attempt sent twice",
  async run(log) {
    const env = await DrillEnv.create(
      {
        name: "two-instances",
        webhooks: { flaky: { failFirst: 1, failShare: 0.3 } },
        appEnv: { WEBHOOK_POLL_INTERVAL_MS: "100", WEBHOOK_RETRY_BASE_MS: "200" },
      },
      log,
    );
    try {
      await env.startApp(1);
      await seedReferrers(env.db, env.project.id, 100, "ref_");
      const backlog = await env.addProject("Drill two-instances backlog", ["flaky"]);
      await seedReferrers(env.db, backlog.project.id, 100, "ref_");
      const itemsPer = RATE_PER_INSTANCE * LOAD_S;
      const items = await seedPendingItems(env.db, {
        projectId: env.project.id,
        campaignId: env.project.campaignId,
        referrers: 100,
        count: 2 * itemsPer,
        first: 1_000_001,
        refereePrefix: "item_",
      });
      // Sample which workers hold leases, to show both took part.
      const holders = new Set<string>();
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          for (const r of await env.query<{ leasedBy: string }>(`SELECT DISTINCT "leasedBy" FROM "Delivery" WHERE "leasedUntil" > now() AND "leasedBy" IS NOT NULL`)) holders.add(r.leasedBy);
          await new Promise((r) => setTimeout(r, 100));
        }
      })();

      log(`  ${BACKLOG} due deliveries, then ${RATE_PER_INSTANCE} rewards/s to each instance for ${LOAD_S} s ...`);
      await seedDeliveryBacklog(env.db, {
        projectId: backlog.project.id,
        campaignId: backlog.project.campaignId,
        webhookId: backlog.webhookIds.flaky!,
        referrers: 100,
        count: BACKLOG,
        first: 2_000_001,
        refereePrefix: "blog_",
      });
      const headers = { "content-type": "application/json", authorization: `Bearer ${env.apiKey}` };
      const loads = await Promise.all(
        env.apps.map((app, instance) =>
          runPaced({
            origin: app.origin,
            ratePerS: RATE_PER_INSTANCE,
            durationS: LOAD_S,
            connections: 4,
            next: (k) => {
              const item = items[instance * itemsPer + k];
              return item ? { method: "POST", path: env.publicPath("/referrals/reward"), headers, body: JSON.stringify({ referralTrackingId: item.trackingId, eventName: "purchase" }) } : null;
            },
          }),
        ),
      );
      const left = await env.waitForDeliveries(240_000);
      sampling = false;
      await sampler;

      const receipts = new Map<string, { requests: number; successes: number }>();
      for (const r of await env.receiver.records()) {
        const entry = receipts.get(r.deliveryId) ?? { requests: 0, successes: 0 };
        entry.requests++;
        if (r.status < 300) entry.successes++;
        receipts.set(r.deliveryId, entry);
      }
      const recorded = await env.query<{ id: string; attemptCount: number; logged: string; status: string }>(
        `SELECT d."id", d."attemptCount", d."status", (SELECT count(*) FROM "DeliveryAttempt" a WHERE a."deliveryId" = d."id") AS logged FROM "Delivery" d`,
      );
      const sentTwice = recorded.filter((d) => (receipts.get(d.id)?.requests ?? 0) > d.attemptCount || (receipts.get(d.id)?.successes ?? 0) > 1);
      const unlogged = recorded.filter((d) => Number(d.logged) !== d.attemptCount);
      const notReceived = recorded.filter((d) => !receipts.get(d.id)?.successes);
      const retried = recorded.filter((d) => d.attemptCount > 1).length;
      const facts = await deliveryFacts(env);
      const violations = await rewardViolations(env, { counters: false });
      const requests = [...receipts.values()].reduce((sum, r) => sum + r.requests, 0);
      return {
        figures: {
          deliveries: recorded.length,
          receiverRequests: requests,
          attemptsRecorded: recorded.reduce((sum, d) => sum + d.attemptCount, 0),
          deliveriesRetried: retried,
          workersSeenHoldingLeases: holders.size,
          rewardAnswers: loads.map((l) => statusSummary(l.records)),
          deliveryFacts: facts,
          pendingAfterWait: left,
        },
        checks: [
          check("both instances delivered", holders.size >= 2, `${holders.size} worker ids seen holding leases`),
          check(
            "no delivery attempt sent twice",
            sentTwice.length === 0,
            `${requests} requests at the receiver for ${recorded.length} deliveries and ${recorded.reduce((sum, d) => sum + d.attemptCount, 0)} recorded attempts ` +
              `(${retried} deliveries retried); ${sentTwice.length} deliveries received more often than attempted` +
              (sentTwice.length ? `, e.g. ${JSON.stringify(sentTwice.slice(0, 3).map((d) => ({ ...d, received: receipts.get(d.id) })))}` : ""),
          ),
          check("every attempt logged once", unlogged.length === 0, `${unlogged.length} deliveries whose log entries differ from their attempt count`),
          check(
            "every delivery arrives and ends Succeeded",
            notReceived.length === 0 && facts.succeeded === recorded.length,
            `${facts.succeeded} of ${recorded.length} succeeded, ${notReceived.length} never answered 200; at most ${facts.maxAttemptCount} attempts`,
          ),
          check("no reward is half-applied", violations.length === 0, violations.length ? JSON.stringify(violations).slice(0, 400) : "reward invariants hold"),
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
