/**
 * PostgreSQL restarted under load. Rewards, tracking and reads run at a steady rate while the
 * database is stopped (fast shutdown: every session is cut) for a few seconds and started again.
 * Expected: requests during the outage get 503 problems with Retry-After; the app recovers by
 * itself; no reward is half-applied; no delivery is lost.
 */
import { readFileSync } from "node:fs";
import { epochNow, runPaced, type PacedRecord, type PacedRequest } from "../harness/paced-load";
import { summarize } from "../stats";
import { check, header, sleep, statusSummary, type Drill } from "./drill";
import { DrillEnv } from "./environment";
import { deliveryFacts, rewardViolations } from "./invariants";

const LOAD_S = 30;
const OUTAGE_AT_S = 8;
const OUTAGE_S = 6;
/** After PostgreSQL is back, requests started this much later must all succeed. */
const RECOVERY_GRACE_MS = 5_000;
const RATES = { reward: 12, track: 6, read: 6 };

export const postgresRestart: Drill = {
  name: "postgres-restart",
  summary: "PostgreSQL restarted under load: 503 + Retry-After during the outage, recovery, no half-applied reward, no lost delivery",
  async run(log) {
    const env = await DrillEnv.create(
      { name: "postgres-restart", webhooks: { hook: {} }, appEnv: { WEBHOOK_RETRY_BASE_MS: "500", WEBHOOK_POLL_INTERVAL_MS: "500" } },
      log,
    );
    try {
      const json = { "content-type": "application/json", authorization: `Bearer ${env.apiKey}` };
      const referrers = await env.createReferrers(40);
      const codeOf = (n: number) => referrers[n % referrers.length]!.code;

      const itemsNeeded = RATES.reward * LOAD_S + 20;
      log(`  tracking ${itemsNeeded} referrals to reward later ...`);
      const tracked = await runPaced({
        origin: env.app.origin,
        ratePerS: 100,
        durationS: itemsNeeded / 100,
        connections: 8,
        next: (k) => ({ method: "POST", path: env.publicPath("/referrals/track"), headers: json, body: JSON.stringify({ referralCode: codeOf(k), refereeId: `referee-${k}` }) }),
      });
      const items = tracked.records.filter((r) => r.status === 200).map((r) => (JSON.parse(r.body) as { referralTrackingId: string }).referralTrackingId);
      if (items.length < RATES.reward * LOAD_S) throw new Error(`Only ${items.length} items tracked (${statusSummary(tracked.records)})`);

      const streams: Record<keyof typeof RATES, (k: number) => PacedRequest | null> = {
        reward: (k) =>
          items[k] ? { method: "POST", path: env.publicPath("/referrals/reward"), headers: json, body: JSON.stringify({ referralTrackingId: items[k], eventName: "purchase" }), tag: items[k] } : null,
        track: (k) => ({ method: "POST", path: env.publicPath("/referrals/track"), headers: json, body: JSON.stringify({ referralCode: codeOf(k), refereeId: `late-referee-${k}` }) }),
        read: (k) => ({ method: "GET", path: env.publicPath(`/users/by-user-id/${referrers[k % referrers.length]!.clientId}`), headers: json }),
      };
      log(`  load for ${LOAD_S} s (${RATES.reward} rewards/s, ${RATES.track} tracks/s, ${RATES.read} reads/s); PostgreSQL stopped at ${OUTAGE_AT_S} s for ${OUTAGE_S} s ...`);
      const loads = (Object.keys(RATES) as (keyof typeof RATES)[]).map((kind) =>
        runPaced({ origin: env.app.origin, ratePerS: RATES[kind], durationS: LOAD_S, connections: 4, next: streams[kind], timeoutMs: 20_000 }).then((r) => ({ kind, ...r })),
      );
      await sleep(OUTAGE_AT_S * 1000);
      const stopAt = epochNow();
      await env.postgres.stopServer("fast");
      const downAt = epochNow();
      await sleep(OUTAGE_S * 1000);
      const restartAt = epochNow();
      await env.postgres.startServer();
      const upAt = epochNow();
      log(`  PostgreSQL down from +${((downAt - stopAt) / 1000).toFixed(1)} s to +${((upAt - stopAt) / 1000).toFixed(1)} s after the stop began`);
      const results = await Promise.all(loads);
      const all = results.flatMap((r) => r.records.map((record) => ({ ...record, kind: r.kind })));

      await env.reconnect();
      const pendingLeft = await env.waitForDeliveries(120_000);

      const outage = all.filter((r) => r.startedAt >= downAt && r.startedAt < restartAt);
      const good503 = (r: PacedRecord) =>
        r.status === 503 && header(r, "retry-after") !== undefined && /^application\/problem\+json/.test(header(r, "content-type") ?? "");
      const afterGrace = all.filter((r) => r.startedAt >= upAt + RECOVERY_GRACE_MS);
      const firstSuccess = all.filter((r) => r.startedAt >= upAt && r.status >= 200 && r.status < 300).sort((a, b) => a.startedAt - b.startedAt)[0];
      const rewards = all.filter((r) => r.kind === "reward");
      const acknowledged = rewards.filter((r) => r.status === 200 && (JSON.parse(r.body) as { rewardClaimed?: boolean }).rewardClaimed).map((r) => r.tag!);
      const [{ completed }] = (await env.query<{ completed: string }>(
        `SELECT count(*) AS completed FROM "ReferralTracking" WHERE "id" = ANY($1) AND "status" = 'Completed'`,
        [acknowledged],
      )) as [{ completed: string }];
      // A reward committed just before its connection was cut is answered with an error all the same.
      const unanswered = rewards.filter((r) => r.status !== 200).map((r) => r.tag!);
      const [{ completedDespiteError }] = (await env.query<{ completedDespiteError: string }>(
        `SELECT count(*) AS "completedDespiteError" FROM "ReferralTracking" WHERE "id" = ANY($1) AND "status" = 'Completed'`,
        [unanswered],
      )) as [{ completedDespiteError: string }];
      const violations = await rewardViolations(env);
      const facts = await deliveryFacts(env);
      const received = new Set((await env.receiver.records()).filter((r) => r.status < 300).map((r) => r.deliveryId));
      const deliveryIds = (await env.query<{ id: string }>(`SELECT "id" FROM "Delivery"`)).map((r) => r.id);
      const notReceived = deliveryIds.filter((id) => !received.has(id));
      const outageSample = outage.find((r) => r.status !== 503) ?? outage[0];
      // What the app saw, for whoever maps it to 503: Prisma error codes and driver messages in its log.
      const serverErrors: Record<string, number> = {};
      for (const match of readFileSync(env.app.options.logFile, "utf8").matchAll(/code: '(P\d{4})'|Message: `([^`]+)`|(Client has encountered a connection error[^\n]*)/g)) {
        const key = match[1] ?? match[2] ?? match[3]!;
        serverErrors[key] = (serverErrors[key] ?? 0) + 1;
      }

      return {
        figures: {
          requests: all.length,
          outageMs: Math.round(restartAt - downAt),
          duringOutage: statusSummary(outage),
          outageLatency: summarize(outage.map((r) => r.latencyMs)),
          outageSample: outageSample && { status: outageSample.status, headers: outageSample.headers, body: outageSample.body.slice(0, 300) },
          firstSuccessAfterRestartMs: firstSuccess ? Math.round(firstSuccess.startedAt + firstSuccess.latencyMs - upAt) : null,
          afterRecovery: statusSummary(afterGrace),
          byKind: Object.fromEntries(results.map((r) => [r.kind, statusSummary(r.records)])),
          rewardsAcknowledged: acknowledged.length,
          rewardsAnsweredWithAnError: unanswered.length,
          rewardsCompletedDespiteAnError: Number(completedDespiteError),
          deliveries: facts,
          deliveriesNotReceived: notReceived.length,
          deliveriesPendingAfterWait: pendingLeft,
          receiverRequests: (await env.receiver.stats()).requests,
          serverLogErrors: serverErrors,
        },
        checks: [
          check(
            "requests during the outage get 503 problems with Retry-After",
            outage.length > 0 && outage.every(good503),
            `${outage.length} requests started while PostgreSQL was down: ${statusSummary(outage)}` +
              (outageSample && !good503(outageSample)
                ? `; e.g. ${outageSample.status} ${header(outageSample, "content-type") ?? ""} Retry-After: ${header(outageSample, "retry-after") ?? "none"} ${outageSample.body.slice(0, 160)}`
                : ""),
          ),
          check(
            "the app recovers by itself",
            afterGrace.length > 0 && afterGrace.every((r) => r.status >= 200 && r.status < 300),
            `first success ${firstSuccess ? `${Math.round(firstSuccess.startedAt + firstSuccess.latencyMs - upAt)} ms` : "never"} after PostgreSQL was back; ` +
              `requests started ${RECOVERY_GRACE_MS / 1000} s or more after: ${statusSummary(afterGrace)}`,
          ),
          check("no reward is half-applied", violations.length === 0, violations.length ? JSON.stringify(violations).slice(0, 600) : "all reward invariants hold"),
          check(
            "every acknowledged reward is Completed",
            Number(completed) === acknowledged.length,
            `${acknowledged.length} rewards answered rewardClaimed: true, ${completed} of them Completed`,
          ),
          check(
            "no delivery lost",
            facts.pending === 0 && facts.failed === 0 && notReceived.length === 0 && facts.maxAttemptCount <= 5,
            `${facts.deliveries} deliveries: ${facts.succeeded} succeeded, ${facts.pending} pending, ${facts.failed} failed; ` +
              `${notReceived.length} never received; at most ${facts.maxAttemptCount} attempts`,
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
