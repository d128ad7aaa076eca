/** The one table of a run, and its JSON. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { printTable } from "../report";
import type { ScenarioRow } from "./scenarios";

const f1 = (v: number | undefined | null, unit = "") => (v === undefined || v === null || !Number.isFinite(v) ? "-" : `${v.toFixed(1)}${unit}`);
const f0 = (v: number | undefined | null) => (v === undefined || v === null || !Number.isFinite(v) ? "-" : Math.round(v).toLocaleString("en"));

export function result(row: ScenarioRow) {
  if (!row.available) return "n/a";
  const missed = row.checks.filter((c) => !c.met).map((c) => c.name);
  return missed.length ? `MISS (${missed.join(", ")})` : "pass";
}

/** WAL bytes and full-page images per request; `+ckpt` when a checkpoint started during the run (its page images then inflate it). */
function walPerRequest(r: ScenarioRow) {
  const wal = r.cpu?.wal;
  if (!wal || !r.requests) return "-";
  return `${(wal.bytes / r.requests / 1024).toFixed(1)} kB, ${(wal.fullPageImages / r.requests).toFixed(1)} FPI${wal.checkpoints ? " +ckpt" : ""}`;
}

export function printScenarioTable(rows: ScenarioRow[]) {
  printTable(
    "Over real HTTP (load generator in its own process; errors = non-2xx answers + requests without an answer)",
    ["#", "scenario", "requests", "rate/s", "p50", "p99", "errors", "vs pgbench", "target", "result", "app CPU/req", "pg CPU/req", "WAL/req", "machine"],
    rows.map((r) =>
      r.available
        ? [
            r.id,
            r.name,
            f0(r.requests),
            f0(r.ratePerS),
            f1(r.p50Ms, " ms"),
            f1(r.p99Ms, " ms"),
            f0(r.errors),
            r.ceiling ? `${(r.ceiling.ratio * 100).toFixed(1)}% of ${r.ceiling.script}` : "",
            r.target,
            result(r),
            f1(r.cpu?.serverMsPerRequest, " ms"),
            f1(r.cpu?.postgresMsPerRequest, " ms"),
            walPerRequest(r),
            r.cpu ? `${r.cpu.machineBusyPct.toFixed(0)}% busy` : "",
          ]
        : [r.id, r.name, "", "", "", "", "", "", r.target, "n/a", "", "", "", ""],
    ),
  );
  const notes = rows.filter((r) => r.note);
  if (notes.length) {
    console.log("\n  Notes:");
    for (const r of notes) console.log(`  (${r.id}) ${r.name}: ${r.note}`);
  }
  const counted = rows.filter((r) => r.sql);
  if (counted.length) {
    console.log("\n  SQL statements per request (pg_stat_statements: calls per request, mean planning + execution time; the delivery worker's included):");
    for (const r of counted) {
      console.log(`  (${r.id}) ${r.name}: ${r.sql!.perRequest.toFixed(1)} per request`);
      for (const s of r.sql!.top.slice(0, 10)) console.log(`        ${(s.calls / Math.max(1, r.requests ?? 1)).toFixed(2)}  ${s.meanMs.toFixed(3)} ms  ${s.plansPerCall.toFixed(2)} plans/call  ${s.query.slice(0, 110)}`);
    }
  }
}

export async function writeJson(file: string, data: unknown) {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(data, null, 2) + "\n");
  return file;
}
