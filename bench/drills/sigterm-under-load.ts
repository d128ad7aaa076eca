/**
 * SIGTERM in the middle of a reward load, with deliveries in flight to a receiver that answers after
 * 300 ms. Expected: the server stops taking connections, answers every request it had received, hands
 * the deliveries it holds back (none left leased), and exits 0; started again, it delivers every
 * reward's webhook, none as an attempt lost.
 */
import { readFileSync } from "node:fs";
import { epochNow, runPaced } from "../harness/paced-load";
import { seedPendingItems, seedReferrers } from "../harness/seed-sql";
import { check, sleep, statusSummary, type Drill } from "./drill";
import { DrillEnv } from "./environment";
import { deliveryFacts, rewardViolations } from "./invariants";

const RATE = 40;
const LOAD_S = 8;
const SIGNAL_AFTER_MS = 4_000;
const RECEIVER_DELAY_MS = 300;

type AccessLine = { msg?: string; requestId?: string; status?: number; aborted?: boolean };

export const sigtermUnderLoad: Drill = {
  name: "sigterm-under-load",
  summary: "SIGTERM under load: every request the server received is answered, no delivery left leased, exit 0",
  async run(log) {
    const env = await DrillEnv.create(
      { name: "sigterm-under-load", webhooks: { hook: { delayMs: RECEIVER_DELAY_MS } }, appEnv: { REFERLOOP_ACCESS_LOG: "true" } },
      log,
    );
    try {
      await seedReferrers(env.db, env.project.id, 50, "ref_");
      const items = await seedPendingItems(env.db, {
        projectId: env.project.id,
        campaignId: env.project.campaignId,
        referrers: 50,
        count: RATE * LOAD_S,
        first: 1_000_001,
        refereePrefix: "item_",
      });
      const headers = { "content-type": "application/json", authorization: `Bearer ${env.apiKey}` };
      const app = env.app;
      log(`  ${RATE} rewards/s for ${LOAD_S} s; SIGTERM after ${SIGNAL_AFTER_MS / 1000} s ...`);
      let signalledAt = 0;
      const stopped = sleep(SIGNAL_AFTER_MS).then(async () => {
        const [row] = await env.query<{ n: string }>(`SELECT count(*) AS n FROM "Delivery" WHERE "status" = 'Pending' AND "leasedUntil" > now()`);
        signalledAt = epochNow();
        await app.stop(60_000);
        return { leasedAtSignal: Number(row!.n), stopMs: epochNow() - signalledAt };
      });
      const load = await runPaced({
        origin: app.origin,
        ratePerS: RATE,
        durationS: LOAD_S,
        connections: 8,
        timeoutMs: 20_000,
        next: (k) => {
          const item = items[k];
          return item
            ? { method: "POST", path: env.publicPath("/referrals/reward"), tag: `drill-${k}`, headers: { ...headers, "x-request-id": `drill-${k}` }, body: JSON.stringify({ referralTrackingId: item.trackingId }) }
            : null;
        },
      });
      const { leasedAtSignal, stopMs } = await stopped;
      const exitCode = app.exitStatus;
      const [leftLeased] = await env.query<{ n: string }>(`SELECT count(*) AS n FROM "Delivery" WHERE "leasedBy" IS NOT NULL AND "leasedUntil" > now()`);

      // What the server says it received and answered, by request id.
      const lines = readFileSync(app.options.logFile, "utf8")
        .split("\n")
        .filter((l) => l.startsWith("{"))
        .map((l) => JSON.parse(l) as AccessLine)
        .filter((l) => l.msg === "request" && l.requestId?.startsWith("drill-"));
      const received = new Map(lines.map((l) => [l.requestId!, l]));
      const byTag = new Map(load.records.map((r) => [r.tag!, r]));
      const unanswered = [...received.values()].filter((l) => l.aborted || byTag.get(l.requestId!)?.status !== l.status);
      const failedClientSide = load.records.filter((r) => r.status === 0);
      const failedButReceived = failedClientSide.filter((r) => received.has(r.tag!));
      const claimed = load.records.filter((r) => r.status === 200 && r.body.includes('"rewardClaimed":true')).length;

      log(`  stopped in ${Math.round(stopMs)} ms (exit ${exitCode}); restarting to deliver the rest ...`);
      await env.startApp(0);
      const pending = await env.waitForDeliveries(120_000);
      const facts = await deliveryFacts(env);
      const violations = await rewardViolations(env, { counters: false });
      const receivedIds = new Set((await env.receiver.records()).filter((r) => r.status < 300).map((r) => r.deliveryId));
      const ids = (await env.query<{ id: string }>(`SELECT "id" FROM "Delivery"`)).map((r) => r.id);
      const notReceived = ids.filter((id) => !receivedIds.has(id));
      return {
        figures: {
          requests: load.records.length,
          answers: statusSummary(load.records),
          receivedByServer: received.size,
          refusedBeforeReceipt: failedClientSide.length - failedButReceived.length,
          rewardsClaimed: claimed,
          leasedAtSignal,
          stopMs: Math.round(stopMs),
          deliveries: facts,
          pendingAfterRestart: pending,
        },
        checks: [
          check("the signal came with requests and deliveries in flight", received.size > 0 && failedClientSide.length > 0 && leasedAtSignal > 0, `${received.size} requests received before the stop, ${failedClientSide.length} refused after it, ${leasedAtSignal} deliveries leased at the signal`),
          check(
            "every request the server received got its whole answer",
            unanswered.length === 0 && failedButReceived.length === 0,
            `${received.size} received; ${unanswered.length} logged unanswered or cut off, ${failedButReceived.length} received but failed at the client` +
              (failedButReceived[0] ? ` (e.g. ${failedButReceived[0].tag}: ${failedButReceived[0].error})` : ""),
          ),
          check("the server exits 0", exitCode === 0, `exit ${exitCode} after ${Math.round(stopMs)} ms`),
          check("no delivery is left leased", Number(leftLeased!.n) === 0, `${leftLeased!.n} deliveries still leased after the exit`),
          check(
            "every reward's deliveries arrive after the restart, none as a lost attempt",
            notReceived.length === 0 && facts.pending === 0 && facts.lostAttemptEntries === 0 && facts.maxAttemptCount <= 5,
            `${facts.deliveries} deliveries: ${notReceived.length} never received, ${facts.pending} pending, ${facts.lostAttemptEntries} attempts logged lost`,
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
