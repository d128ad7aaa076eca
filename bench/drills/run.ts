/**
 * `npm run drills [-- <name> ...]`: fault drills against private PostgreSQL servers and production
 * builds of the app. Prints pass/fail per check with its figures; exits 1 when a drill fails, 2 when
 * one could not run. Results: .data/bench-http/drills-latest.json. See bench/README.md, "Drills".
 */
import os from "node:os";
import path from "node:path";
import { WORK_DIR } from "../harness/app-server";
import { writeJson } from "../http/report";
import type { Drill, DrillOutcome } from "./drill";
import { postgresRestart } from "./postgres-restart";
import { sigtermUnderLoad } from "./sigterm-under-load";
import { sigkillBacklog } from "./sigkill-backlog";
import { slowReceiver } from "./slow-receiver";
import { twoInstances } from "./two-instances";

const DRILLS: Drill[] = [postgresRestart, sigkillBacklog, sigtermUnderLoad, slowReceiver, twoInstances];

type Result = { name: string; durationS: number; loadAverage: { before: number[]; after: number[] } } & ({ outcome: DrillOutcome; passed: boolean } | { error: string; passed: false });

async function main(): Promise<number> {
  const names = process.argv.slice(2).filter((a) => !a.startsWith("-"));
  if (process.argv.includes("--help") || process.argv.includes("--list")) {
    console.log("usage: npm run drills [-- <name> ...]\n" + DRILLS.map((d) => `  ${d.name.padEnd(18)} ${d.summary}`).join("\n"));
    return 0;
  }
  const unknown = names.filter((n) => !DRILLS.some((d) => d.name === n));
  if (unknown.length) throw new Error(`Unknown drill(s): ${unknown.join(", ")}. Known: ${DRILLS.map((d) => d.name).join(", ")}`);
  const selected = names.length ? DRILLS.filter((d) => names.includes(d.name)) : DRILLS;

  const results: Result[] = [];
  for (const drill of selected) {
    console.log(`\n== ${drill.name}: ${drill.summary}`);
    const started = performance.now();
    const before = os.loadavg();
    const loadAverage = () => ({ before: before.map((v) => Math.round(v * 100) / 100), after: os.loadavg().map((v) => Math.round(v * 100) / 100) });
    const log = (line: string) => console.log(line);
    try {
      const outcome = await drill.run(log);
      const durationS = (performance.now() - started) / 1000;
      const passed = outcome.checks.every((c) => c.passed);
      for (const c of outcome.checks) console.log(`  ${c.passed ? "PASS" : "FAIL"}  ${c.name}: ${c.detail}`);
      console.log(`  figures: ${JSON.stringify(outcome.figures)}`);
      const load = loadAverage();
      console.log(`  => ${drill.name} ${passed ? "passed" : "FAILED"} in ${durationS.toFixed(0)} s (load average before ${load.before.join(" ")}, after ${load.after.join(" ")})`);
      results.push({ name: drill.name, durationS, loadAverage: load, outcome, passed });
    } catch (error) {
      const durationS = (performance.now() - started) / 1000;
      console.log(`  => ${drill.name} could not run (${durationS.toFixed(0)} s): ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      results.push({ name: drill.name, durationS, loadAverage: loadAverage(), error: String(error), passed: false });
    }
  }

  console.log("\nDrills:");
  for (const r of results) console.log(`  ${r.passed ? "pass" : "FAIL"}  ${r.name.padEnd(18)} ${r.durationS.toFixed(0).padStart(4)} s${"error" in r ? "  (could not run)" : ""}`);
  const failed = results.filter((r) => !r.passed).length;
  console.log(`${results.length - failed} passed, ${failed} failed`);
  await writeJson(path.join(WORK_DIR, "drills-latest.json"), { finishedAt: new Date().toISOString(), results });
  return results.some((r) => "error" in r) ? 2 : failed ? 1 : 0;
}

// Ctrl-C: exit through process.exit, so the exit hooks stop the servers this run started.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("drills failed:", error);
    process.exit(2);
  },
);
