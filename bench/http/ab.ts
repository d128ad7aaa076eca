/**
 * Two server builds (or two settings of one) side by side on one database, measured in alternation:
 * a change's A/B on this shared VM, whose speed drifts within minutes. Both servers run on production
 * defaults (access log on, quotas raised, dashboard page served), as in `npm run bench:http`.
 *
 *   node scripts/build-server.mjs && cp dist/server/server.mjs dist/server/ab-b.mjs   (likewise ab-a.mjs at the commit before)
 *   npx tsx bench/http/ab.ts --a dist/server/ab-a.mjs --b dist/server/ab-b.mjs --scenario get [--rounds 4] [--seconds 8]
 *   npx tsx bench/http/ab.ts --b-env REFERLOOP_ACCESS_LOG=0 --scenario get          (one build, two settings)
 *   npx tsx bench/http/ab.ts --b-sql "DROP INDEX IF EXISTS ..." --a-sql "CREATE INDEX IF NOT EXISTS ..." --scenario reward   (one build, two schemas)
 *
 * Scenarios: get, track, track-hot, reward, reward-hot (REST; -hot: one referrer takes every referee).
 * `--paced N` sends N requests a second evenly instead of a closed loop: on a busy machine, where a
 * saturated server's rate is its share of the cores, CPU per request at a fixed rate still measures work.
 * Rounds run A,B then B,A alternately; the summary is B's rate over A's per round and the app CPU per
 * request of each.
 * `--perf FILE` records `perf record -a -g` (every process, PostgreSQL's backends included) over the
 * measured seconds of each side's first run, to FILE-A and FILE-B: the fixtures written before a run
 * (a bulk insert of 20,000 items) profile nothing like the requests, and a recording started by hand
 * can catch them.
 */
import { spawn } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { AppServer, ROOT, SERVER_ENTRY, WORK_DIR } from "../harness/app-server";
import { checkpoint, adminUrl as defaultAdminUrl, databaseUrl as urlOfDatabase, dropDatabase, recreateDatabase } from "../harness/databases";
import { Receiver } from "../harness/receiver";
import { seedPendingItems, seedReferrers, seedRewardHistory, type PendingItem } from "../harness/seed-sql";
import { BENCH_QUOTAS, bootstrapOrganization, createProject, createWebhook, migrate, openDashboard, raiseQuotas } from "../harness/setup";
import { seededClientId, seededReferralCode } from "../seed";
import { runPaced } from "../harness/paced-load";
import { summarize } from "../stats";
import { runClosedLoop, type RequestSpec } from "./closed-loop";
import { loadAverage, startCpuMeters } from "./meters";

const { values: flags } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string" },
    "a-env": { type: "string", multiple: true },
    "b-env": { type: "string", multiple: true },
    "a-sql": { type: "string", multiple: true },
    "b-sql": { type: "string", multiple: true },
    scenario: { type: "string", default: "get" },
    rounds: { type: "string", default: "4" },
    seconds: { type: "string", default: "8" },
    port: { type: "string", default: "3480" },
    paced: { type: "string" },
    perf: { type: "string" },
  },
});
const SCENARIOS = ["get", "track", "track-hot", "reward", "reward-hot"];
const scenario = flags.scenario!;
if (!SCENARIOS.includes(scenario)) throw new Error(`--scenario: one of ${SCENARIOS.join(", ")}`);
const rounds = Number(flags.rounds);
const seconds = Number(flags.seconds);
const port = Number(flags.port);
/** Requests a second sent evenly (below saturation): CPU per request then measures work, not the share of a busy machine's cores. */
const paced = flags.paced === undefined ? undefined : Number(flags.paced);
const REFERRERS = 20_000;
const envOf = (pairs: string[] | undefined) => Object.fromEntries((pairs ?? []).map((p) => [p.slice(0, p.indexOf("=")), p.slice(p.indexOf("=") + 1)]));
const sides = {
  A: { entry: flags.a ? path.resolve(ROOT, flags.a) : SERVER_ENTRY, env: envOf(flags["a-env"]), sql: flags["a-sql"] ?? [] },
  B: { entry: flags.b ? path.resolve(ROOT, flags.b) : SERVER_ENTRY, env: envOf(flags["b-env"]), sql: flags["b-sql"] ?? [] },
};

const database = "referloop_bench_ab";
const admin = defaultAdminUrl();
const url = urlOfDatabase(database, admin);
const servers: AppServer[] = [];
let receiver: Receiver | undefined;
const db = new pg.Client({ connectionString: url });

/**
 * `perf record -a -g` for `seconds` into `file`; resolves once it has written it, with why it could
 * not (the caller throws that after the run, so that no rejection is left unheard meanwhile).
 */
function recordPerf(file: string, seconds: number): Promise<string | null> {
  const perf = spawn("perf", ["record", "-a", "-g", "-o", file, "--", "sleep", String(seconds)], { stdio: ["ignore", "ignore", "pipe"] });
  let said = "";
  perf.stderr.on("data", (chunk: Buffer) => (said += chunk.toString()));
  return new Promise((resolve) => {
    perf.once("error", (error) => resolve(`${error.message}; on Debian: apt-get install linux-perf`));
    perf.once("exit", (code) => resolve(code === 0 ? null : said.trim() || `exit ${code}`));
  });
}

try {
  console.log(`A/B ${scenario}: A ${path.relative(ROOT, sides.A.entry)} ${JSON.stringify(sides.A.env)}, B ${path.relative(ROOT, sides.B.entry)} ${JSON.stringify(sides.B.env)}; load average ${loadAverage().join(" ")}`);
  await recreateDatabase(database, admin);
  await migrate(url);
  const { apiKey, organizationId } = await bootstrapOrganization(url, "Referloop A/B");
  await raiseQuotas(url, organizationId, BENCH_QUOTAS);
  receiver = await Receiver.start(port + 2);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  for (const [k, side] of [sides.A, sides.B].entries()) {
    const server = await AppServer.start({ port: port + k, databaseUrl: url, entry: side.entry, env: side.env, logFile: path.join(WORK_DIR, "logs", `ab-${stamp}-${"AB"[k]}.log`) });
    servers.push(server);
    await openDashboard(server.origin);
  }
  await db.connect();
  const auth = { authorization: `Bearer ${apiKey}` };
  const project = await createProject(servers[0]!.origin, apiKey, "A/B");
  const webhookId = await createWebhook(servers[0]!.origin, apiKey, project, "hot", receiver.url("hot"));
  await seedReferrers(db, project.id, REFERRERS, "ref_");
  if (process.env.AB_HISTORY !== "0") await seedRewardHistory(db, { projectId: project.id, campaignId: project.campaignId, webhookId, referrers: REFERRERS, count: REFERRERS });
  await db.query("VACUUM ANALYZE");
  const path_ = (p: string) => `/api/v1/public/projects/${project.id}${p}`;
  const json = { ...auth, "content-type": "application/json" };
  const hot = scenario.endsWith("-hot");
  let first = 1_000_001;

  /** The request source of one run (each run its own referees or items). */
  async function source(run: number): Promise<() => RequestSpec | null> {
    let i = 0;
    if (scenario === "get") {
      return () => ({ method: "GET", path: path_(`/users/by-user-id/${seededClientId("ref_", 1 + (i++ % REFERRERS))}`), headers: auth });
    }
    if (scenario.startsWith("track")) {
      return () => {
        const n = i++;
        const code = seededReferralCode(hot ? 1 : 1 + (n % REFERRERS));
        return { method: "POST", path: path_("/referrals/track"), headers: json, body: JSON.stringify({ referralCode: code, refereeId: `ab_${run}_${n}` }) };
      };
    }
    const count = 20_000;
    const items: PendingItem[] = await seedPendingItems(db, { projectId: project.id, campaignId: project.campaignId, referrers: hot ? 1 : REFERRERS, count, first, refereePrefix: `ab${run}_` });
    first += 1_000_000;
    await db.query("VACUUM (ANALYZE)");
    return () => {
      const item = items[i++];
      return item ? { method: "POST", path: path_("/referrals/reward"), headers: json, body: JSON.stringify({ referralTrackingId: item.trackingId, eventName: "purchase", environment: "Production" }) } : null;
    };
  }

  async function pacedRun(origin: string, ratePerS: number, next: () => RequestSpec | null) {
    const run = await runPaced({ origin, ratePerS, durationS: seconds, connections: 8, next: () => next() });
    const latencies = run.records.map((r) => r.latencyMs);
    return {
      requests: run.records.length,
      ratePerS: run.records.length / run.wallS,
      latency: summarize(latencies),
      non2xx: run.records.filter((r) => r.status < 200 || r.status >= 300).length,
      failures: 0,
    };
  }

  type Run = { side: "A" | "B"; rate: number; p99: number; errors: number; cpuMs: number | null; pgMs: number | null };
  const runs: Run[] = [];
  let run = 0;
  for (let round = 0; round < rounds; round++) {
    for (const side of round % 2 === 0 ? (["A", "B"] as const) : (["B", "A"] as const)) {
      const server = servers[side === "A" ? 0 : 1]!;
      // A schema A/B (an index, a constraint): each side's statements run before each of its runs, so
      // they must be safe to repeat (IF EXISTS, IF NOT EXISTS).
      for (const statement of sides[side].sql) await db.query(statement);
      const next = await source(run++);
      await checkpoint(admin);
      await runClosedLoop({ origin: server.origin, connections: 8, durationS: 2, next });
      const stop = await startCpuMeters({ serverPid: server.pid, adminUrl: admin, database });
      // The first two runs are round 1: A then B.
      const recording = flags.perf && run <= 2 ? recordPerf(`${flags.perf}-${side}`, seconds) : undefined;
      const r = paced === undefined ? await runClosedLoop({ origin: server.origin, connections: 8, durationS: seconds, next }) : await pacedRun(server.origin, paced, next);
      const cpu = await stop();
      const perfFailed = await recording;
      if (perfFailed) throw new Error(`--perf: perf record failed: ${perfFailed}`);
      const result = { side, rate: r.ratePerS, p99: r.latency.p99, errors: r.non2xx + r.failures, cpuMs: cpu.serverMs === null ? null : cpu.serverMs / r.requests, pgMs: cpu.postgresMs === null ? null : cpu.postgresMs / r.requests };
      runs.push(result);
      console.log(`  round ${round + 1} ${side}: ${r.ratePerS.toFixed(0)}/s, p99 ${r.latency.p99.toFixed(1)} ms, ${result.errors} errors, app CPU ${result.cpuMs?.toFixed(3) ?? "-"} ms/request, pg CPU ${result.pgMs?.toFixed(3) ?? "-"} ms/request, machine ${cpu.machineBusyPct.toFixed(0)}% busy`);
    }
  }
  const ratios = Array.from({ length: rounds }, (_, k) => {
    const [x, y] = runs.slice(2 * k, 2 * k + 2);
    const a = x!.side === "A" ? x! : y!;
    const b = x!.side === "B" ? x! : y!;
    return b.rate / a.rate;
  });
  const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
  const cpu = (side: "A" | "B", of: "cpuMs" | "pgMs" = "cpuMs") => mean(runs.filter((r) => r.side === side && r[of] !== null).map((r) => r[of]!));
  const rate = (side: "A" | "B") => mean(runs.filter((r) => r.side === side).map((r) => r.rate));
  const sorted = [...ratios].sort((x, y) => x - y);
  console.log(
    `B/A rate by round ${ratios.map((r) => r.toFixed(3)).join(", ")} (median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)}); ` +
      `mean rate A ${rate("A").toFixed(0)}/s, B ${rate("B").toFixed(0)}/s; app CPU per request A ${cpu("A").toFixed(3)} ms, B ${cpu("B").toFixed(3)} ms (B/A ${(cpu("B") / cpu("A")).toFixed(3)}); ` +
      `pg CPU per request A ${cpu("A", "pgMs").toFixed(3)} ms, B ${cpu("B", "pgMs").toFixed(3)} ms; ` +
      `load average ${loadAverage().join(" ")}`,
  );
} finally {
  for (const server of servers) await server.stop();
  await receiver?.stop();
  await db.end().catch(() => undefined);
  await dropDatabase(database, admin);
}
process.exit(0);
