/** What one `npm run bench:http` run does, from flags and BENCH_HTTP_* variables (README: Over real HTTP). */
import { parseArgs } from "node:util";

const num = (name: string, fallback: number) => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number (got ${raw})`);
  return value;
};

export const SCENARIOS = ["1", "2", "3", "4", "5", "6", "7"] as const;
export type ScenarioId = (typeof SCENARIOS)[number];

export type Settings = ReturnType<typeof readSettings>;

export const USAGE = `usage: npm run bench:http -- [--quick] [--cpu-prof] [--count-sql] [--keep-db]
  --quick       small sizes and 3 s runs (a smoke run; results go to .data/bench-http/)
  --cpu-prof    start the server with NODE_OPTIONS=--cpu-prof; profiles in .data/bench-http/profiles/
  --count-sql   run on a private PostgreSQL with pg_stat_statements and report statements per request
  --keep-db     keep the referloop_bench_http database afterwards
Environment (defaults in brackets): BENCH_HTTP_CONNECTIONS [8], BENCH_HTTP_DURATION_S [10],
  BENCH_HTTP_WARMUP_S [2], BENCH_HTTP_LIST_USERS [1000000], BENCH_HTTP_REWARD_ITEMS [25000],
  BENCH_HTTP_WEBHOOK_S [15], BENCH_HTTP_WEBHOOK_RATE [20], BENCH_HTTP_BACKLOG [50000],
  BENCH_HTTP_BACKLOG_MAX_S [120], BENCH_HTTP_PGBENCH_S [10], BENCH_HTTP_PGBENCH_SCALE [8],
  BENCH_HTTP_PORT [3400; the receiver takes +1, a private PostgreSQL +2,
  the floor +3, the app without access log +4, two processes +5], BENCH_HTTP_ONLY [all: e.g. 1,3,5],
  DATABASE_URL [unset: a fresh referloop_bench_http on the local PostgreSQL]`;

export function readSettings(argv = process.argv.slice(2)) {
  const { values: flags } = parseArgs({
    args: argv,
    options: {
      quick: { type: "boolean" },
      "cpu-prof": { type: "boolean" },
      "count-sql": { type: "boolean" },
      "keep-db": { type: "boolean" },
      help: { type: "boolean" },
    },
  });
  const quick = Boolean(flags.quick);
  const only = (process.env.BENCH_HTTP_ONLY ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of only) if (!SCENARIOS.includes(id as ScenarioId)) throw new Error(`BENCH_HTTP_ONLY: unknown scenario ${id} (1 to 7)`);
  const port = num("BENCH_HTTP_PORT", 3400);
  return {
    help: Boolean(flags.help),
    quick,
    cpuProfile: Boolean(flags["cpu-prof"]),
    countSql: Boolean(flags["count-sql"]),
    keepDb: Boolean(flags["keep-db"]),
    scenarios: (only.length ? only : [...SCENARIOS]) as ScenarioId[],
    /** A full run of every scenario on the shared server: the one whose results are committed. */
    get reference() {
      return !quick && !this.countSql && only.length === 0;
    },
    connections: num("BENCH_HTTP_CONNECTIONS", 8),
    durationS: num("BENCH_HTTP_DURATION_S", quick ? 3 : 10),
    warmupS: num("BENCH_HTTP_WARMUP_S", quick ? 1 : 2),
    listUsers: num("BENCH_HTTP_LIST_USERS", quick ? 100_000 : 1_000_000),
    /** Seeded referrers of the hot project (GET targets, referral codes to track). */
    referrers: quick ? 2_000 : 20_000,
    rewardItems: num("BENCH_HTTP_REWARD_ITEMS", quick ? 5_000 : 25_000),
    webhookS: num("BENCH_HTTP_WEBHOOK_S", quick ? 5 : 15),
    webhookRate: num("BENCH_HTTP_WEBHOOK_RATE", 20),
    backlog: num("BENCH_HTTP_BACKLOG", quick ? 5_000 : 50_000),
    backlogMaxS: num("BENCH_HTTP_BACKLOG_MAX_S", quick ? 30 : 120),
    /** How long to wait for deliveries queued by a scenario before the next one starts. */
    drainMaxS: 180,
    pgbench: { scale: num("BENCH_HTTP_PGBENCH_SCALE", quick ? 2 : 8), clients: 8, threads: 2, seconds: num("BENCH_HTTP_PGBENCH_S", quick ? 3 : 10) },
    ports: { app: port, receiver: port + 1, privatePostgres: port + 2 },
  };
}
