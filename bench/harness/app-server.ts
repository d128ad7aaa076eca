/**
 * The production server (`npm start`: src/server.ts compiled to dist/server/server.mjs) as its own process group, so it can be stopped gracefully
 * (SIGTERM: the delivery worker finishes its in-flight attempts) or killed outright (SIGKILL).
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, openSync, closeSync, readFileSync } from "node:fs";
import path from "node:path";

/** The secrets production mode on PostgreSQL requires, the same for every process of a run. */
export const BENCH_SECRETS = {
  REFERLOOP_ENCRYPTION_KEY: "referloop-bench-only-encryption-key",
  NEXTAUTH_SECRET: "referloop-bench-only-nextauth-secret",
};

export const ROOT = path.resolve(import.meta.dirname, "../..");
/** The front door, as `npm start` runs it: the compiled server in this very process, so --cpu-prof sees it. */
export const SERVER_ENTRY = path.join(ROOT, "dist/server/server.mjs");
/** Bench and drill data (logs, profiles, the app's data folder): gitignored. */
export const WORK_DIR = path.join(ROOT, ".data", "bench-http");

/**
 * Runs `npm run build` once when there is no production build yet; else compiles the server again
 * (under a second), so that the server measured is this checkout's code. The dashboard's build is
 * not redone: after changing it, run `npm run build`.
 */
export function ensureBuild(log: (line: string) => void = console.log) {
  if (existsSync(path.join(ROOT, ".next", "BUILD_ID"))) {
    const server = spawnSync(process.execPath, ["scripts/build-server.mjs"], { cwd: ROOT, stdio: "inherit" });
    if (server.status !== 0) throw new Error(`scripts/build-server.mjs failed (exit ${server.status}).`);
    return false;
  }
  log("No production build (.next/BUILD_ID): running npm run build once.");
  const result = spawnSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  if (result.status !== 0) throw new Error(`npm run build failed (exit ${result.status}).`);
  return true;
}

export type AppServerOptions = {
  port: number;
  databaseUrl: string;
  /** Log file of the server's stdout and stderr. */
  logFile: string;
  /** Extra environment (overrides the defaults below). */
  env?: Record<string, string | undefined>;
  /** Directory for `--cpu-prof` profiles (written when the server exits gracefully). */
  cpuProfileDir?: string;
  /** Another compiled server than SERVER_ENTRY (an A/B comparison's other build, beside it in dist/server/). */
  entry?: string;
};

/**
 * The environment of a bench server: production build and NODE_ENV, http and private webhook targets
 * allowed (webhooks to 127.0.0.1 over http), fixed secrets (nothing written to the real data folder), no Inngest (the
 * embedded worker delivers). Everything else is production's default: the access log on (one line a
 * request, into `logFile` as a log shipper reads it) and request quotas counted per key; the bench
 * raises its organisation's quotas as an operator does (raiseQuotas in setup.ts), never turns them off.
 */
export function serverEnv(options: AppServerOptions): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ["INNGEST_DEV", "INNGEST_EVENT_KEY", "INNGEST_SIGNING_KEY", "INNGEST_BASE_URL", "NODE_OPTIONS", "REFERLOOP_ACCESS_LOG", "RATE_LIMIT_API_KEY_PER_MINUTE", "RATE_LIMIT_SDK_PER_MINUTE", "LOG_LEVEL"]) delete env[name];
  Object.assign(env, {
    NODE_ENV: "production",
    DATABASE_URL: options.databaseUrl,
    WEBHOOK_ALLOW_PRIVATE_URLS: "true",
    REFERLOOP_ALLOW_HTTP_URLS: "true",
    ...BENCH_SECRETS,
    NEXTAUTH_URL: `http://127.0.0.1:${options.port}`,
    REFERLOOP_DATA_DIR: path.join(WORK_DIR, "app-data"),
    NEXT_TELEMETRY_DISABLED: "1",
  });
  for (const [name, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

export class AppServer {
  private exitCode: number | null | undefined;
  private readonly exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    readonly options: AppServerOptions,
  ) {
    this.exited = new Promise((resolve) =>
      child.once("exit", (code, signal) => {
        this.exitCode = code ?? (signal ? -1 : null);
        live.delete(this);
        resolve();
      }),
    );
  }

  get pid() {
    return this.child.pid!;
  }

  get origin() {
    return `http://127.0.0.1:${this.options.port}`;
  }

  get running() {
    return this.exitCode === undefined;
  }

  /** The exit code once it has exited (-1 when a signal ended it), else undefined. */
  get exitStatus() {
    return this.exitCode;
  }

  static async start(options: AppServerOptions): Promise<AppServer> {
    mkdirSync(path.dirname(options.logFile), { recursive: true });
    if (options.cpuProfileDir) mkdirSync(options.cpuProfileDir, { recursive: true });
    const log = openSync(options.logFile, "a");
    // Node 20 refuses --cpu-prof in NODE_OPTIONS; the server serves from this very process, so the flag goes here.
    const profile = options.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${options.cpuProfileDir}`] : [];
    const child = spawn(process.execPath, [...profile, "--enable-source-maps", options.entry ?? SERVER_ENTRY, "-p", String(options.port), "-H", "127.0.0.1"], {
      cwd: ROOT,
      env: serverEnv(options),
      stdio: ["ignore", log, log],
      // Its own process group: a signal reaches the server and anything it spawned.
      detached: true,
    });
    closeSync(log);
    const server = new AppServer(child, options);
    live.add(server);
    await server.waitReady();
    return server;
  }

  /** Resolves once the server answers HTTP (any status); fails if it exits or takes over 180 s (a busy VM's start, as the e2e server's). */
  private async waitReady(timeoutMs = 180_000) {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!this.running) throw new Error(`The server exited (${this.exitCode}) before it was ready:\n${this.tailLog()}`);
      try {
        await fetch(`${this.origin}/api/v1`, { signal: AbortSignal.timeout(2_000) });
        return;
      } catch {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    throw new Error(`The server did not answer within ${timeoutMs} ms:\n${this.tailLog()}`);
  }

  /** The Node the server runs, from its "listening" line. */
  nodeVersion(): string | undefined {
    try {
      return /"node":"(v[\d.]+)".*"msg":"listening"/.exec(readFileSync(this.options.logFile, "utf8"))?.[1];
    } catch {
      return undefined;
    }
  }

  tailLog(lines = 30): string {
    try {
      return readFileSync(this.options.logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  }

  private signalGroup(signal: NodeJS.Signals) {
    try {
      process.kill(-this.pid, signal);
    } catch {
      // Already gone.
    }
  }

  /** SIGTERM (graceful: the worker finishes in-flight attempts, profiles are written), SIGKILL after `graceMs`. */
  async stop(graceMs = 30_000) {
    if (!this.running) return;
    this.signalGroup("SIGTERM");
    const killed = setTimeout(() => this.signalGroup("SIGKILL"), graceMs);
    await this.exited;
    clearTimeout(killed);
  }

  /** SIGKILL to the whole group: nothing gets to clean up (a crash). */
  async kill() {
    if (!this.running) return;
    this.signalGroup("SIGKILL");
    await this.exited;
  }
}

const live = new Set<AppServer>();
process.once("exit", () => {
  for (const server of live) {
    try {
      process.kill(-server.pid, "SIGKILL");
    } catch {
      // Gone.
    }
  }
});
