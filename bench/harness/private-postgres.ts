/**
 * A PostgreSQL server of our own: initdb into a temporary folder and run it on a spare port, so a
 * drill may stop and restart it (the shared server on 5432 must never be restarted: other engineers'
 * tests run on it). As root, the server runs as the `postgres` OS user (PostgreSQL refuses root).
 */
import { execFile, execFileSync, type ExecFileOptions } from "node:child_process";
import { appendFileSync, chownSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { postgresBinary } from "./pg-binaries";

const execFileAsync = promisify(execFile);

/** The uid/gid to run the server as: `postgres` when we are root, else ourselves. */
function serverUser(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

export type PrivatePostgresOptions = {
  port: number;
  /** Extra postgresql.conf settings, e.g. { shared_preload_libraries: "'pg_stat_statements'" }. */
  settings?: Record<string, string | number>;
};

export class PrivatePostgres {
  private constructor(
    readonly port: number,
    readonly dir: string,
    private readonly user: { uid: number; gid: number } | undefined,
  ) {}

  get dataDir() {
    return path.join(this.dir, "data");
  }

  get logFile() {
    return path.join(this.dir, "server.log");
  }

  /** The URL of `database` on this server (user postgres, trust authentication). */
  url(database = "postgres") {
    return `postgresql://postgres@127.0.0.1:${this.port}/${database}`;
  }

  static async start(options: PrivatePostgresOptions): Promise<PrivatePostgres> {
    const user = serverUser();
    const dir = mkdtempSync(path.join(tmpdir(), "referloop-pg-"));
    if (user) chownSync(dir, user.uid, user.gid);
    const server = new PrivatePostgres(options.port, dir, user);
    live.add(server);
    try {
      // --no-sync: the folder is thrown away; fsync stays on for the server itself (crash drills).
      await server.run("initdb", ["-D", server.dataDir, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync"]);
      const settings: Record<string, string | number> = {
        port: options.port,
        listen_addresses: "'127.0.0.1'",
        unix_socket_directories: `'${dir}'`,
        max_connections: 100,
        ...options.settings,
      };
      appendFileSync(
        path.join(server.dataDir, "postgresql.conf"),
        "\n# referloop bench/drills\n" + Object.entries(settings).map(([k, v]) => `${k} = ${v}`).join("\n") + "\n",
      );
      await server.startServer();
      return server;
    } catch (error) {
      await server.destroy();
      throw error;
    }
  }

  private async run(program: "initdb" | "pg_ctl", args: string[], timeoutMs = 60_000) {
    const options: ExecFileOptions = { timeout: timeoutMs, cwd: this.dir, env: { ...process.env, LC_ALL: "C" }, ...(this.user ?? {}) };
    try {
      return await execFileAsync(postgresBinary(program), args, options);
    } catch (error) {
      const e = error as { stderr?: string; stdout?: string; message: string };
      throw new Error(`${program} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}${e.stderr ?? ""}\n${this.tailLog()}`);
    }
  }

  /** Starts (or starts again) and waits until it accepts connections. */
  async startServer() {
    await this.run("pg_ctl", ["-D", this.dataDir, "-l", this.logFile, "-w", "-t", "60", "start"]);
  }

  /** `fast` disconnects every session and shuts down cleanly; `immediate` is a crash (recovery on start). */
  async stopServer(mode: "fast" | "immediate" = "fast") {
    await this.run("pg_ctl", ["-D", this.dataDir, "-m", mode, "-w", "-t", "60", "stop"]);
  }

  tailLog(lines = 20): string {
    try {
      return readFileSync(this.logFile, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
    } catch {
      return "";
    }
  }

  /** Stops the server (if running) and removes its folder. */
  async destroy() {
    live.delete(this);
    try {
      await this.run("pg_ctl", ["-D", this.dataDir, "-m", "immediate", "-w", "-t", "30", "stop"], 40_000);
    } catch {
      // Not running (never started, or stopped by a drill).
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Synchronous last resort when the process exits without cleaning up. */
  destroySync() {
    live.delete(this);
    try {
      execFileSync(postgresBinary("pg_ctl"), ["-D", this.dataDir, "-m", "immediate", "-w", "stop"], { stdio: "ignore", ...(this.user ?? {}) });
    } catch {
      // Not running.
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const live = new Set<PrivatePostgres>();
process.once("exit", () => {
  for (const server of live) server.destroySync();
});

