/**
 * What a scenario cost, beside what it achieved: CPU of the app server process, of the PostgreSQL
 * backends serving the bench database, of this load generator, and the machine as a whole; with
 * --count-sql, the statements PostgreSQL ran (pg_stat_statements) per request.
 */
import os from "node:os";
import { processGroupCpuMs, startBackendCpuMeter, startCpuMeter } from "../cpu";
import { withClient } from "../harness/databases";

export type CpuFigures = {
  wallMs: number;
  /** The app server process (requests and the embedded delivery worker). */
  serverMs: number | null;
  /** Backends of the bench database; null when the server is not local. */
  postgresMs: number | null;
  /** This process: the load generator. */
  loadGeneratorMs: number;
  /** Busy share of all cores: 100% means the machine was saturated (by anything, others included). */
  machineBusyPct: number;
  /** WAL the whole server wrote meanwhile (pg_stat_wal; the bench database is the only busy one); null when unreadable. */
  wal: WalFigures | null;
};

export type WalFigures = {
  records: number;
  /** Full-page images: the first change of a page after a checkpoint writes the whole page. */
  fullPageImages: number;
  bytes: number;
  /** Checkpoints started meanwhile (timed or requested): their full-page images fall on the run. */
  checkpoints: number;
};

const readWal = (adminUrl: string) =>
  withClient(adminUrl, async (c) => {
    const { rows } = await c.query<{ records: string; fpi: string; bytes: string; checkpoints: string }>(
      `SELECT w.wal_records AS records, w.wal_fpi AS fpi, w.wal_bytes AS bytes, b.checkpoints_timed + b.checkpoints_req AS checkpoints
       FROM pg_stat_wal w, pg_stat_bgwriter b`,
    );
    const r = rows[0]!;
    return { records: Number(r.records), fullPageImages: Number(r.fpi), bytes: Number(r.bytes), checkpoints: Number(r.checkpoints) };
  }).catch(() => null);

export async function startCpuMeters(input: { serverPid: number; adminUrl: string; database: string }): Promise<() => Promise<CpuFigures>> {
  const stopPostgres = await startBackendCpuMeter(input.adminUrl, input.database).catch(() => async () => null);
  const walBefore = await readWal(input.adminUrl);
  const serverBefore = processGroupCpuMs(input.serverPid);
  const stopMachine = startCpuMeter();
  return async () => {
    const machine = stopMachine();
    const serverAfter = processGroupCpuMs(input.serverPid);
    const walAfter = await readWal(input.adminUrl);
    return {
      wallMs: machine.wallMs,
      serverMs: serverBefore === null || serverAfter === null ? null : serverAfter - serverBefore,
      postgresMs: await stopPostgres(),
      loadGeneratorMs: machine.processMs,
      machineBusyPct: (machine.machineBusyMs / (machine.wallMs * machine.cores)) * 100,
      wal:
        walBefore && walAfter
          ? {
              records: walAfter.records - walBefore.records,
              fullPageImages: walAfter.fullPageImages - walBefore.fullPageImages,
              bytes: walAfter.bytes - walBefore.bytes,
              checkpoints: walAfter.checkpoints - walBefore.checkpoints,
            }
          : null,
    };
  };
}

export type SqlFigures = { statements: number; top: { calls: number; meanMs: number; plansPerCall: number; query: string }[] };

/**
 * pg_stat_statements on a server that preloads it (the private one of --count-sql): reset before a
 * scenario, read after. Counts every statement on the bench database meanwhile, the delivery
 * worker's included, and BEGIN/COMMIT (track_utility); top-level statements only (not the foreign-key
 * checks run inside them). A statement planned but never run (one that failed at its start) has no
 * calls and is left out.
 */
export class SqlCounter {
  private constructor(
    private readonly adminUrl: string,
    private readonly database: string,
  ) {}

  static async create(adminUrl: string, database: string) {
    await withClient(adminUrl, (c) => c.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements"));
    return new SqlCounter(adminUrl, database);
  }

  async reset() {
    await withClient(this.adminUrl, (c) => c.query("SELECT pg_stat_statements_reset()"));
  }

  async read(): Promise<SqlFigures> {
    return withClient(this.adminUrl, async (c) => {
      const { rows } = await c.query<{ calls: string; plans: string; mean_ms: number; query: string }>(
        `SELECT s.calls, s.plans, (s.total_plan_time + s.total_exec_time) / s.calls AS mean_ms, s.query
         FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid
         WHERE d.datname = $1 AND s.calls > 0 ORDER BY s.calls DESC`,
        [this.database],
      );
      const all = rows.map((r) => ({ calls: Number(r.calls), meanMs: Number(r.mean_ms), plansPerCall: Number(r.plans) / Number(r.calls), query: r.query.replace(/\s+/g, " ").slice(0, 160) }));
      return { statements: all.reduce((sum, r) => sum + r.calls, 0), top: all.slice(0, 12) };
    });
  }
}

export function machineFacts() {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? "unknown",
    cores: cpus.length,
    memoryGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${os.type()} ${os.release()}`,
  };
}

export const loadAverage = () => os.loadavg().map((v) => Math.round(v * 100) / 100) as [number, number, number];
