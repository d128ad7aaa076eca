/**
 * `npm run bench:http`: the running production server measured over real HTTP, from a load
 * generator in its own process, against pgbench ceilings taken on the same PostgreSQL in the same
 * run. See bench/README.md, "Over real HTTP". Exits 1 when a target is missed, 2 when the run fails.
 */
import { execFileSync } from "node:child_process";
import path from "node:path";
import { ROOT, WORK_DIR } from "../harness/app-server";
import { runPgbenchScripts } from "../pgbench";
import { setUp, tearDown, type Fixture } from "./fixture";
import { loadAverage, machineFacts } from "./meters";
import { printScenarioTable, result, writeJson } from "./report";
import { Scenarios, type Ceilings, type ScenarioRow } from "./scenarios";
import { readSettings, USAGE, type ScenarioId } from "./settings";

const log = (line: string) => console.log(line);

function gitFacts() {
  const git = (...args: string[]) => execFileSync("git", args, { cwd: ROOT, encoding: "utf8" }).trim();
  try {
    // The results file a run writes does not count as a change for the next run.
    return { commit: git("rev-parse", "HEAD"), branch: git("rev-parse", "--abbrev-ref", "HEAD"), dirty: git("status", "--porcelain", "--", ".", ":!bench/results").length > 0 };
  } catch {
    return { commit: "unknown", branch: "unknown", dirty: false };
  }
}

async function main(): Promise<number> {
  const settings = readSettings();
  if (settings.help) {
    console.log(USAGE);
    return 0;
  }
  const started = performance.now();
  const loadBefore = loadAverage();
  const machine = machineFacts();
  const git = gitFacts();
  log(
    `referloop bench:http: ${machine.cores} x ${machine.cpuModel}, ${machine.memoryGiB} GiB, node ${machine.node}; ` +
      `load average ${loadBefore.join(" ")}; commit ${git.commit.slice(0, 10)}${git.dirty ? " (uncommitted changes)" : ""}`,
  );
  if (loadBefore[0] > machine.cores / 2) log("  Warning: the machine is busy; rates will be lower and noisier than on a quiet machine.");

  const made: Partial<Fixture> = {};
  const rows: ScenarioRow[] = [];
  let ceilings: Ceilings | undefined;
  let fixture: Fixture | undefined;
  try {
    fixture = await setUp(settings, log, made);
    log(
      `Server ${fixture.server.origin} (pid ${fixture.server.pid}) on ${fixture.database} (PostgreSQL ${fixture.postgresVersion}); ` +
        `receiver pid ${fixture.receiver.pid}; setup ${JSON.stringify(fixture.setupTimings)} ms`,
    );

    log(`pgbench (scale ${settings.pgbench.scale}, ${settings.pgbench.clients} clients, ${settings.pgbench.seconds} s each): TPC-B-like, select-only ...`);
    const [tpcb, selectOnly] = await runPgbenchScripts(settings.pgbench, ["tpcb-like", "select-only"], fixture.adminUrl);
    ceilings = { tpcb: tpcb!, selectOnly: selectOnly! };
    log(`  TPC-B-like ${tpcb!.tps.toFixed(0)} tps, select-only ${selectOnly!.tps.toFixed(0)} tps`);

    const scenarios = new Scenarios(fixture, ceilings, log);
    // The backlog goes last: whatever it leaves undelivered when capped cannot disturb another scenario.
    const order: [ScenarioId, string, () => Promise<ScenarioRow[]>][] = [
      ["1", "GET a user by client id", () => scenarios.getUser()],
      ["2", "track (REST) and track-referral (SDK)", () => scenarios.track()],
      ["3", "reward (REST) and track-reward-event (SDK)", () => scenarios.reward()],
      ["4", "list users with a search", () => scenarios.list()],
      ["5", "reward to webhook received", () => scenarios.rewardToWebhook()],
      ["7", "widget first load", () => scenarios.widget()],
      ["6", "backlog of due deliveries", () => scenarios.backlog()],
    ];
    for (const [id, title, run] of order) {
      if (!settings.scenarios.includes(id)) continue;
      log(`(${id}) ${title} ...`);
      try {
        for (const row of await run()) {
          rows.push(row);
          log(`  ${row.name}: ${row.available ? `${Math.round(row.ratePerS ?? 0)}/s, p99 ${row.p99Ms?.toFixed(1) ?? "-"} ms, ${result(row)}` : "n/a"}`);
        }
      } catch (error) {
        log(`  failed: ${String(error)}`);
        rows.push({ id, name: title, available: true, target: "", checks: [{ name: "ran", actual: 0, comparison: ">=", limit: 1, unit: "", met: false }], note: `failed: ${String(error)}` });
      }
    }
  } finally {
    await tearDown(made, settings.keepDb);
  }

  const loadAfter = loadAverage();
  const durationS = (performance.now() - started) / 1000;
  printScenarioTable(rows);
  console.log(
    `\n  pgbench on the same server, same run: TPC-B-like ${ceilings!.tpcb.tps.toFixed(0)} tps, select-only ${ceilings!.selectOnly.tps.toFixed(0)} tps ` +
      `(scale ${settings.pgbench.scale}, ${settings.pgbench.clients} clients, ${settings.pgbench.seconds} s)`,
  );
  console.log(`  Machine: ${machine.cores} x ${machine.cpuModel}, ${machine.memoryGiB} GiB; load average before ${loadBefore.join(" ")}, after ${loadAfter.join(" ")}`);
  console.log(`  ${settings.connections} connections, ${settings.durationS} s per run after ${settings.warmupS} s of warm-up; the whole run took ${durationS.toFixed(0)} s.`);
  if (fixture?.cpuProfileDir) console.log(`  CPU profiles of the server: ${fixture.cpuProfileDir} (open in Chrome DevTools or speedscope).`);

  const file = settings.reference ? path.join(ROOT, "bench", "results", "latest.json") : path.join(WORK_DIR, "latest.json");
  await writeJson(file, {
    finishedAt: new Date().toISOString(),
    durationS,
    mode: settings.reference ? "reference" : [settings.quick && "quick", settings.countSql && "count-sql", settings.scenarios.length < 7 && `only ${settings.scenarios.join(",")}`].filter(Boolean).join(", "),
    git,
    machine: { ...machine, loadAverageBefore: loadBefore, loadAverageAfter: loadAfter },
    postgres: fixture?.postgresVersion,
    settings: {
      connections: settings.connections,
      durationS: settings.durationS,
      warmupS: settings.warmupS,
      listUsers: settings.listUsers,
      referrers: settings.referrers,
      rewardItems: settings.rewardItems,
      webhookS: settings.webhookS,
      webhookRate: settings.webhookRate,
      backlog: settings.backlog,
      backlogMaxS: settings.backlogMaxS,
      cpuProfile: settings.cpuProfile,
      countSql: settings.countSql,
    },
    setupTimingsMs: fixture?.setupTimings,
    pgbench: ceilings,
    scenarios: rows,
  });
  console.log(`  Results: ${path.relative(ROOT, file)}`);
  const missed = rows.filter((r) => r.available && r.checks.some((c) => !c.met));
  console.log(missed.length ? `\n${missed.length} scenario(s) missed a target.` : "\nEvery available scenario met its targets.");
  return missed.length ? 1 : 0;
}

// Ctrl-C: exit through process.exit, so the exit hooks stop the servers this run started.
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => process.exit(130));

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("\nbench:http failed:", error);
    process.exit(2);
  },
);
