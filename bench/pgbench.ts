/** The ceilings to compare against: pgbench's built-in scripts on the same server, in the same run. */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { postgresBinary } from "./harness/pg-binaries";
import { adminUrl as defaultAdminUrl, checkpoint, dropDatabase, recreateDatabase } from "./harness/databases";

const run = promisify(execFile);
const SCRATCH_DB = "referloop_bench_pgbench";

/** TPC-B-like: a few writes in one transaction (a reward's ceiling); select-only: one read by key. */
export type PgbenchScript = "tpcb-like" | "select-only";
export type PgbenchOptions = { scale: number; clients: number; threads: number; seconds: number };
export type PgbenchResult = PgbenchOptions & { script: PgbenchScript; tps: number; latencyAvgMs: number; transactions: number; binary: string };

/** libpq settings for pgbench, taken from an admin URL. */
function libpqEnv(adminUrl: string): NodeJS.ProcessEnv {
  const url = new URL(adminUrl);
  return {
    ...process.env,
    PGHOST: url.hostname,
    PGPORT: url.port || "5432",
    PGUSER: decodeURIComponent(url.username) || "postgres",
    ...(url.password ? { PGPASSWORD: decodeURIComponent(url.password) } : {}),
  };
}

function readNumber(output: string, pattern: RegExp, what: string): number {
  const match = pattern.exec(output);
  if (!match) throw new Error(`pgbench printed no ${what}:\n${output}`);
  return Number(match[1]);
}

/**
 * `pgbench -i -s <scale>` on a scratch database, then each built-in script for `seconds` (TPC-B-like
 * by default), then drops the database. `adminUrl` names the server (default: the bench's).
 */
export async function runPgbenchScripts(
  options: PgbenchOptions,
  scripts: readonly PgbenchScript[],
  adminUrl = defaultAdminUrl(),
): Promise<PgbenchResult[]> {
  const binary = postgresBinary("pgbench");
  const env = libpqEnv(adminUrl);
  await recreateDatabase(SCRATCH_DB, adminUrl);
  try {
    await run(binary, ["-i", "-q", "-s", String(options.scale), SCRATCH_DB], { env, timeout: 120_000 });
    const results: PgbenchResult[] = [];
    for (const script of scripts) {
      await checkpoint(adminUrl);
      const args = ["-b", script, "-c", String(options.clients), "-j", String(options.threads), "-T", String(options.seconds), SCRATCH_DB];
      const { stdout } = await run(binary, args, { env, timeout: (options.seconds + 60) * 1000 });
      results.push({
        ...options,
        script,
        binary,
        tps: readNumber(stdout, /^tps = ([\d.]+)/m, "tps"),
        latencyAvgMs: readNumber(stdout, /^latency average = ([\d.]+) ms/m, "average latency"),
        transactions: readNumber(stdout, /^number of transactions actually processed: (\d+)/m, "transaction count"),
      });
    }
    return results;
  } finally {
    await dropDatabase(SCRATCH_DB, adminUrl);
  }
}

/** The TPC-B-like ceiling alone (npm run bench). */
export async function runPgbench(options: PgbenchOptions): Promise<PgbenchResult> {
  const [result] = await runPgbenchScripts(options, ["tpcb-like"]);
  return result!;
}
