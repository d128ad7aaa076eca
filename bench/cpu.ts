/** CPU used during a measured run: this Node process, its PostgreSQL backends, the whole machine. */
import { readdirSync, readFileSync } from "node:fs";
import os from "node:os";
import pg from "pg";

export type CpuUse = {
  wallMs: number;
  /** User + system CPU of this process. */
  processMs: number;
  /** Non-idle CPU of all cores: this process, PostgreSQL, and anything else running. */
  machineBusyMs: number;
  cores: number;
};

const machineBusyMs = () => os.cpus().reduce((sum, { times: t }) => sum + t.user + t.nice + t.sys + t.irq, 0);

/** Starts measuring; the returned function stops and reports. */
export function startCpuMeter(): () => CpuUse {
  const wall = performance.now();
  const proc = process.cpuUsage();
  const busy = machineBusyMs();
  return () => {
    const used = process.cpuUsage(proc);
    return {
      wallMs: performance.now() - wall,
      processMs: (used.user + used.system) / 1000,
      machineBusyMs: machineBusyMs() - busy,
      cores: os.cpus().length,
    };
  };
}

/** Linux reports per-process CPU in clock ticks of USER_HZ, which is 100 on every mainstream kernel. */
const USER_HZ = 100;

/** utime + stime of a local process from /proc, or null when it is not visible (gone, other OS, remote server). */
export function processCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the parenthesised command name: state is field 3, utime 14, stime 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) / USER_HZ) * 1000;
  } catch {
    return null;
  }
}

/**
 * CPU used by every live process of a process group (a server started in a group of its own, with the
 * processes it forks, as REFERLOOP_WORKERS does), in milliseconds; null when /proc is not readable.
 */
export function processGroupCpuMs(pgid: number): number | null {
  try {
    let total = 0;
    for (const entry of readdirSync("/proc")) {
      if (!/^\d+$/.test(entry)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      } catch {
        continue; // exited meanwhile
      }
      // After the command name: state is field 3, pgrp 5, utime 14, stime 15.
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) === pgid) total += ((Number(fields[11]) + Number(fields[12])) / USER_HZ) * 1000;
    }
    return total;
  } catch {
    return null;
  }
}

/**
 * CPU used by the PostgreSQL backends serving one database (the app's pooled connections), read
 * from /proc: it separates the database's share from this process and from anything else on the
 * machine. Null when the server is not local or /proc is not readable.
 */
export async function startBackendCpuMeter(adminUrl: string, database: string): Promise<() => Promise<number | null>> {
  const backends = async () => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>(
        "SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()",
        [database],
      );
      return new Map(rows.map((r) => [r.pid, processCpuMs(r.pid)]));
    } finally {
      await client.end();
    }
  };
  const before = await backends();
  return async () => {
    const after = await backends();
    if (after.size === 0 || [...after.values()].some((v) => v === null)) return null;
    let total = 0;
    for (const [pid, ms] of after) total += ms! - (before.get(pid) ?? 0);
    return total;
  };
}
