/** The ceiling to compare against: pgbench's TPC-B-like transaction on the same server, in the same run. */
import { execFile } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { adminUrl, dropDatabase, recreateDatabase } from "./postgres";

const run = promisify(execFile);
const SCRATCH_DB = "referloop_bench_pgbench";

export type PgbenchOptions = { scale: number; clients: number; threads: number; seconds: number };
export type PgbenchResult = PgbenchOptions & { tps: number; latencyAvgMs: number; transactions: number; binary: string };

/** The server's own pgbench (Debian: /usr/lib/postgresql/<v>/bin), else the one on PATH. */
function findPgbench(): string {
  const lib = "/usr/lib/postgresql";
  const versions = existsSync(lib) ? readdirSync(lib).sort((a, b) => Number(b) - Number(a)) : [];
  const candidates = [
    ...versions.map((v) => path.join(lib, v, "bin", "pgbench")),
    ...(process.env.PATH ?? "").split(path.delimiter).map((dir) => path.join(dir, "pgbench")),
  ];
  const found = candidates.find((file) => existsSync(file));
  if (!found) throw new Error("pgbench not found: install it (Debian: apt-get install postgresql-contrib or postgresql-client).");
  return found;
}

/** libpq settings for pgbench, taken from the benchmark's admin URL. */
function libpqEnv(): NodeJS.ProcessEnv {
  const url = new URL(adminUrl());
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

/** `pgbench -i -s <scale>` on a scratch database, the default TPC-B-like script, then drops the database. */
export async function runPgbench(options: PgbenchOptions): Promise<PgbenchResult> {
  const binary = findPgbench();
  const env = libpqEnv();
  await recreateDatabase(SCRATCH_DB);
  try {
    await run(binary, ["-i", "-q", "-s", String(options.scale), SCRATCH_DB], { env, timeout: 120_000 });
    const args = ["-c", String(options.clients), "-j", String(options.threads), "-T", String(options.seconds), SCRATCH_DB];
    const { stdout } = await run(binary, args, { env, timeout: (options.seconds + 60) * 1000 });
    return {
      ...options,
      binary,
      tps: readNumber(stdout, /^tps = ([\d.]+)/m, "tps"),
      latencyAvgMs: readNumber(stdout, /^latency average = ([\d.]+) ms/m, "average latency"),
      transactions: readNumber(stdout, /^number of transactions actually processed: (\d+)/m, "transaction count"),
    };
  } finally {
    await dropDatabase(SCRATCH_DB);
  }
}
