/**
 * Performance benchmark against the local PostgreSQL: reward throughput (domain and REST) against a
 * pgbench ceiling measured in the same run, listing app users in a 100,000-user project, searching
 * the deliveries of a project with 1,000,000 of them, and memory.
 *
 *   npm run bench                 full run (about a minute)
 *   npm run bench -- --quick      smoke run with small sizes (about 20 s)
 *   npm run bench -- --explain    also print EXPLAIN ANALYZE of every list case (misses always are)
 *   npm run bench -- --keep-db    leave the referloop_bench database for inspection
 *   npm run bench -- --only rewards      only the reward throughput against pgbench (--only list: the list)
 *   npm run bench -- --only deliveries   only the delivery search (with --quick: 20,000 deliveries)
 *   npm run bench -- --only portal       only the referrer's own summary (one referrer with 10,000 referrals)
 *   npm run bench -- --only people       only search by what people know (1,000,000 users; with --quick 20,000)
 *   npm run bench -- --only widget       only the web widget's size budget (hosted script and @referloop/js; no database)
 *   npm run bench -- --only overview     only insight: the project overview's queries and the CSV exports
 *                                        (1,000,000 users / 2,000,000 tracking items; with --quick 20,000 / 40,000)
 *
 * Exits 1 when a target is missed, 2 when the run fails. See bench/README.md.
 */
import "./environment";
import os from "node:os";
import { parseArgs } from "node:util";
import { openPostgres } from "@/server/db/client";
import { deliveryCases, measureDeliveryCases, prepareDeliveryProject, type DeliveryCaseResult, type DeliveryFixture } from "./delivery-search-phase";
import {
  measureExports,
  measureOverview,
  measureOverviewQueries,
  OVERVIEW_RANGES,
  prepareOverviewProject,
  type ExportRun,
  type OverviewCase,
  type OverviewFixture,
  type OverviewQuery,
} from "./overview-phase";
import { explainCase, listCases, measureListCases, prepareListProject, type ListCaseResult, type ListFixture } from "./list-users-phase";
import { MemoryTracker } from "./memory";
import { measurePortal, preparePortalProject, type PortalCaseResult, type PortalFixture } from "./portal-phase";
import { measurePeopleCases, peopleCases, preparePeopleProject, type PeopleCaseResult, type PeopleFixture } from "./search-people-phase";
import { runPgbench, type PgbenchOptions, type PgbenchResult } from "./pgbench";
import { createMigratedDatabase, dropDatabase, withClient } from "./postgres";
import { mb, ms, printTable, rate, Targets, writeResults } from "./report";
import {
  measureRewards,
  prepareRewardItems,
  rewardItemCount,
  WEBHOOKS_PER_CAMPAIGN,
  type MeasuredRun,
  type RewardRuns,
  type RewardSizes,
} from "./reward-phase";
import { summarize } from "./stats";
import { measureWidgetSizes, WIDGET_BUDGET, type WidgetSize } from "./widget-size";

// BENCH_DATABASE: another name, so that two checkouts on one server can run at once.
const BENCH_DB = process.env.BENCH_DATABASE ?? "referloop_bench";

type Sizes = {
  pgbench: PgbenchOptions;
  rewards: RewardSizes;
  users: number;
  listRuns: number;
  deliveries: number;
  searchRuns: number;
  people: number;
  overview: { users: number; items: number; runs: number };
  /** One referrer's referrals, and sequential runs per case, for the referrer's own summary. */
  portal: { referrals: number; runs: number };
};

const SIZES: Record<"full" | "quick", Sizes> = {
  full: {
    pgbench: { scale: 8, clients: 8, threads: 2, seconds: 15 },
    rewards: { warmup: 50, domain: 2000, rest: 500, concurrency: 8 },
    users: 100_000,
    listRuns: 20,
    deliveries: 1_000_000,
    people: 1_000_000,
    overview: { users: 1_000_000, items: 2_000_000, runs: 10 },
    searchRuns: 100,
    portal: { referrals: 10_000, runs: 200 },
  },
  quick: {
    pgbench: { scale: 2, clients: 8, threads: 2, seconds: 3 },
    rewards: { warmup: 20, domain: 200, rest: 50, concurrency: 8 },
    users: 10_000,
    listRuns: 5,
    deliveries: 20_000,
    people: 20_000,
    overview: { users: 20_000, items: 40_000, runs: 5 },
    searchRuns: 20,
    portal: { referrals: 2_000, runs: 50 },
  },
};

const TARGETS = {
  /**
   * Domain rewards/s as a share of pgbench TPC-B-like tps, same server, same run. Not 25%: a claim
   * (2 statements, 6 tables written) costs PostgreSQL several times a TPC-B transaction, and Node
   * adds about 1 ms; the one-statement claim did 11 to 18% on the 2-core machine, the earlier
   * 15-statement transaction 4 to 5% (bench/README.md, Findings). 8% leaves margin for a busy
   * machine and still fails the 15-statement transaction.
   */
  rewardShareOfPgbenchPct: 8,
  rewardP95Ms: 100,
  listP95Ms: 150,
  /** The support console's delivery search (issue 24): p99 of each case, over REST. */
  deliverySearchP99Ms: 50,
  /** Search by what people know (issue 38): users by e-mail or name, referrals and deliveries by short id or e-mail; p99 over REST. */
  peopleSearchP99Ms: 50,
  rssGrowthMb: 300,
  /** The project overview (all its queries), per range preset (the issue's bound, at 1,000,000 users / 2,000,000 items). */
  overviewP95Ms: 300,
  /** CSV exports, read to the end as a client would. */
  exportRowsPerS: 50_000,
  /** RSS growth while an export streams: flat, whatever its length. */
  exportRssGrowthMb: 100,
  /** The referrer's own summary for a referrer with 10,000 referrals (issue 36): p99 of each case. */
  portalSummaryP99Ms: 50,
};

const throughput = (run: MeasuredRun) => (run.latenciesMs.length / run.wallMs) * 1000;
const perCall = (run: MeasuredRun, cpuMs: number | null) => (cpuMs === null ? null : cpuMs / run.latenciesMs.length);

function runSummary(run: MeasuredRun) {
  return {
    ratePerS: throughput(run),
    latency: summarize(run.latenciesMs),
    cpuPerCallMs: { node: perCall(run, run.cpu.processMs), postgres: perCall(run, run.postgresCpuMs), machine: perCall(run, run.cpu.machineBusyMs) },
    machineBusyPct: (run.cpu.machineBusyMs / (run.cpu.wallMs * run.cpu.cores)) * 100,
  };
}

function runRow(name: string, run: MeasuredRun) {
  const s = runSummary(run);
  const cpu = (value: number | null) => (value === null ? "-" : ms(value));
  const { p50, p95, p99, max, count } = s.latency;
  return [name, count, rate(s.ratePerS), ms(p50), ms(p95), ms(p99), ms(max), cpu(s.cpuPerCallMs.node), cpu(s.cpuPerCallMs.postgres), cpu(s.cpuPerCallMs.machine), `${s.machineBusyPct.toFixed(0)}%`];
}

/** "SELECT AppUser x2, UPDATE ..." with repeats folded. */
function foldLabels(labels: string[]): string {
  const folded: { label: string; n: number }[] = [];
  for (const label of labels) {
    const last = folded.at(-1);
    if (last?.label === label) last.n++;
    else folded.push({ label, n: 1 });
  }
  return folded.map((f) => (f.n > 1 ? `${f.label} x${f.n}` : f.label)).join(", ");
}

function reportRewards(sizes: RewardSizes, pgbench: PgbenchResult, track: MeasuredRun, rewards: RewardRuns, targets: Targets) {
  printTable(
    `Rewards: concurrency ${sizes.concurrency}, one distinct pair per item, ${WEBHOOKS_PER_CAMPAIGN} enabled webhooks (outbox rows) per reward`,
    ["path", "calls", "rate", "p50", "p95", "p99", "max", "CPU/call: node", "postgres", "machine", "machine busy"],
    [
      runRow("trackReferral (setup, domain)", track),
      runRow("grantReward (domain)", rewards.domain),
      runRow("POST .../referrals/reward (REST)", rewards.rest),
    ],
  );
  const domain = runSummary(rewards.domain);
  const share = (domain.ratePerS / pgbench.tps) * 100;
  const nodeCpu = domain.cpuPerCallMs.node!;
  console.log(`  statements per reward: ${rewards.statements.length} (${foldLabels(rewards.statements)})`);
  console.log(`  at ${nodeCpu.toFixed(1)} ms of Node CPU per reward, one Node process tops out near ${(1000 / nodeCpu).toFixed(0)} rewards/s`);
  console.log(
    `  pgbench TPC-B-like (scale ${pgbench.scale}, ${pgbench.clients} clients, ${pgbench.threads} threads, ${pgbench.seconds} s): ` +
      `${pgbench.tps.toFixed(0)} tps, average latency ${pgbench.latencyAvgMs.toFixed(1)} ms`,
  );
  console.log(`  domain rewards/s / pgbench tps = ${(share / 100).toFixed(2)} (${share.toFixed(1)}%)`);
  targets.check("reward rate, domain, % of pgbench tps", share, ">=", TARGETS.rewardShareOfPgbenchPct, "%");
  targets.check(`reward p95, domain, concurrency ${sizes.concurrency}`, domain.latency.p95, "<=", TARGETS.rewardP95Ms, "ms");
  targets.check(`reward p95, REST, concurrency ${sizes.concurrency}`, summarize(rewards.rest.latenciesMs).p95, "<=", TARGETS.rewardP95Ms, "ms");
  return { shareOfPgbenchPct: share, track: runSummary(track), domain, rest: runSummary(rewards.rest), statements: rewards.statements };
}

const listMet = (c: ListCaseResult) => c.domain.p95 <= TARGETS.listP95Ms && c.rest.p95 <= TARGETS.listP95Ms;

function reportList(list: ListFixture, runs: number, results: ListCaseResult[], targets: Targets) {
  console.log(`\nSeeded ${list.users} app users in one project in ${(list.seedMs / 1000).toFixed(1)} s (one INSERT ... SELECT generate_series, then VACUUM ANALYZE).`);
  printTable(
    `List app users: ${list.users} users, page size 20, ${runs} runs per case after warm-up, one at a time`,
    ["case", "matches", "domain p50", "domain p95", "REST p50", "REST p95", "result"],
    results.map((c) => [c.name, `${c.totalCount}${c.totalCountExact ? "" : "+"}`, ms(c.domain.p50), ms(c.domain.p95), ms(c.rest.p50), ms(c.rest.p95), listMet(c) ? "ok" : "MISSED"]),
  );
  for (const c of results) {
    targets.check(`list p95, ${c.name}, domain`, c.domain.p95, "<=", TARGETS.listP95Ms, "ms");
    targets.check(`list p95, ${c.name}, REST`, c.rest.p95, "<=", TARGETS.listP95Ms, "ms");
  }
}

function reportDeliverySearch(f: DeliveryFixture, runs: number, results: DeliveryCaseResult[], targets: Targets) {
  console.log(`\nSeeded ${f.deliveries} deliveries (4 webhooks, ${Math.ceil(f.deliveries / 4)} tracking items) in one project in ${(f.seedMs / 1000).toFixed(1)} s.`);
  printTable(
    `Search deliveries: ${f.deliveries} deliveries, page size 20, ${runs} runs per case after warm-up, one at a time`,
    ["case", "matches", "domain p50", "domain p99", "REST p50", "REST p95", "REST p99", "server p50", "server p99", "result"],
    results.map((c) => [
      c.name,
      c.totalCountExact ? c.totalCount : `${c.totalCount}+`,
      ms(c.domain.p50),
      ms(c.domain.p99),
      ms(c.rest.p50),
      ms(c.rest.p95),
      ms(c.rest.p99),
      ms(c.server.p50),
      ms(c.server.p99),
      c.rest.p99 <= TARGETS.deliverySearchP99Ms ? "ok" : "MISSED",
    ]),
  );
  for (const c of results) targets.check(`delivery search p99, ${c.name}, REST`, c.rest.p99, "<=", TARGETS.deliverySearchP99Ms, "ms");
}

function reportMemory(memory: MemoryTracker, targets: Targets) {
  printTable(
    `Memory (RSS of this process; baseline ${mb(memory.baselineRss)} after connecting)`,
    ["phase", "RSS before", "RSS after", "peak", "heap used after"],
    memory.phases.map((p) => [p.phase, mb(p.rssBefore), mb(p.rssAfter), mb(p.rssPeak), mb(p.heapUsedAfter)]),
  );
  targets.check("peak RSS growth over baseline", memory.peakGrowth / 2 ** 20, "<=", TARGETS.rssGrowthMb, "MB");
}

function reportOverview(f: OverviewFixture, runs: number, cases: OverviewCase[], queries: OverviewQuery[], exports: ExportRun[], targets: Targets) {
  console.log(`\nSeeded ${f.users} app users and ${f.items} tracking items (with rewards, events, deliveries) in ${(f.seedMs / 1000).toFixed(1)} s.`);
  printTable(
    `Project overview: every query of the page, side by side, ${runs} runs per range after a warm-up`,
    ["range", "p50", "p95", "max"],
    cases.map((c) => [`${c.days} days`, ms(c.result.p50), ms(c.result.p95), ms(c.result.max)]),
  );
  for (const c of cases) if (c.days <= 90) targets.check(`overview p95, ${c.days} days`, c.result.p95, "<=", TARGETS.overviewP95Ms, "ms");
  const names = [...new Set(queries.map((q) => q.name))];
  const cell = (name: string, days: number) => {
    const q = queries.find((x) => x.name === name && x.days === days);
    return q ? `${q.result.p50.toFixed(1)} / ${q.result.p95.toFixed(1)}` : "-";
  };
  printTable(
    `Each query of the overview alone: server time (EXPLAIN ANALYZE: planning + execution), ${runs} runs after a warm-up, p50 / p95 ms`,
    ["query", ...OVERVIEW_RANGES.map((days) => `${days} days`)],
    names.map((name) => [name, ...OVERVIEW_RANGES.map((days) => cell(name, days))]),
  );
  printTable(
    "CSV exports, read to the end",
    ["file", "rows", "size", "time", "rows/s", "RSS before", "RSS peak", "largest chunk"],
    exports.map((e) => [e.file, e.rows, mb(e.bytes), ms(e.wallMs), rate(e.rowsPerS), mb(e.rssBefore), mb(e.rssPeak), mb(e.largestChunk)]),
  );
  for (const e of exports) {
    // The wide rows' export is there for its memory: its rows are 200 times the others' size.
    if (!e.file.includes("wide")) targets.check(`export ${e.file} rows/s`, e.rowsPerS, ">=", TARGETS.exportRowsPerS, "/s");
    targets.check(`export ${e.file} RSS growth`, (e.rssPeak - e.rssBefore) / 2 ** 20, "<=", TARGETS.exportRssGrowthMb, "MB");
  }
}

function reportPortal(f: PortalFixture, runs: number, results: PortalCaseResult[], targets: Targets) {
  console.log(`\nSeeded one referrer with ${f.referrals} referrals in ${(f.seedMs / 1000).toFixed(1)} s.`);
  printTable(
    `The referrer's own summary: ${f.referrals} referrals, ${runs} runs per case after warm-up, one at a time`,
    ["case", "p50", "p95", "p99", "max"],
    results.map((c) => [c.name, ms(c.latency.p50), ms(c.latency.p95), ms(c.latency.p99), ms(c.latency.max)]),
  );
  for (const c of results) targets.check(`portal summary p99, ${c.name}`, c.latency.p99, "<=", TARGETS.portalSummaryP99Ms, "ms");
}

function reportPeopleSearch(f: PeopleFixture, runs: number, results: PeopleCaseResult[], targets: Targets) {
  console.log(`\nSeeded ${f.users} app users (with email and name), ${f.items} tracking items and deliveries in one project in ${(f.seedMs / 1000).toFixed(1)} s.`);
  printTable(
    `Search by what people know: ${f.users} users, page size 20, ${runs} runs per case over REST, one at a time`,
    ["case", "list", "term", "matches", "p50", "p95", "p99", "server p50", "server p99", "result"],
    results.map((c) => [
      c.name,
      c.path,
      c.search,
      `${c.totalCount}${c.totalCountExact ? "" : "+"}`,
      ms(c.rest.p50),
      ms(c.rest.p95),
      ms(c.rest.p99),
      ms(c.server.p50),
      ms(c.server.p99),
      c.rest.p99 <= TARGETS.peopleSearchP99Ms ? "ok" : "MISSED",
    ]),
  );
  for (const c of results) targets.check(`people search p99, ${c.name}, REST`, c.rest.p99, "<=", TARGETS.peopleSearchP99Ms, "ms");
}

function reportWidgetSizes(sizes: WidgetSize[], targets: Targets) {
  printTable("Web widget size (minified, gzip -9)", ["file", "loaded", "bytes", "gzipped"], sizes.map((s) => [s.name, s.kind, s.bytes, s.gzipped]));
  for (const s of sizes) targets.check(`widget size, ${s.name}, gzipped`, s.gzipped, "<=", s.kind === "UI chunk" ? WIDGET_BUDGET.uiBytes : WIDGET_BUDGET.upFrontBytes, "bytes");
}

const PHASES = ["widget", "rewards", "list", "deliveries", "people", "overview", "portal"] as const;

async function main(): Promise<number> {
  const { values: flags } = parseArgs({
    options: { quick: { type: "boolean" }, explain: { type: "boolean" }, "keep-db": { type: "boolean" }, only: { type: "string" }, help: { type: "boolean" } },
  });
  if (flags.help || (flags.only !== undefined && !(PHASES as readonly string[]).includes(flags.only))) {
    console.log(`usage: npm run bench -- [--quick] [--explain] [--keep-db] [--only ${PHASES.join("|")}]`);
    return flags.help ? 0 : 2;
  }
  const all = flags.only === undefined;
  const runs = (phase: (typeof PHASES)[number]) => all || flags.only === phase;
  const mode = flags.quick ? "quick" : "full";
  const sizes = SIZES[mode];
  const targets = new Targets();
  const started = performance.now();

  // 0. The widget's size budget: no database needed.
  const widget = runs("widget") ? await measureWidgetSizes() : undefined;
  if (widget) reportWidgetSizes(widget, targets);
  if (flags.only === "widget") {
    targets.print();
    return targets.missed.length ? 1 : 0;
  }

  const url = await createMigratedDatabase(BENCH_DB);
  const db = openPostgres(url);
  const memory = new MemoryTracker();
  try {
    const postgres = await withClient(url, async (c) => (await c.query<{ v: string }>("SELECT current_setting('server_version') AS v")).rows[0]!.v);
    const loadAverage = os.loadavg()[0]!;
    console.log(
      `referloop bench (${mode}): node ${process.version} (NODE_ENV=${process.env.NODE_ENV}), PostgreSQL ${postgres}, ` +
        `${os.cpus().length} cores; database ${BENCH_DB}; load average ${loadAverage.toFixed(1)}`,
    );
    if (loadAverage > 1) console.log("  Warning: other processes are using the CPU; throughput will be lower and noisier than on an idle machine.");

    const results: Record<string, unknown> = {};
    // 1. The ceiling, then rewards against it.
    if (runs("rewards")) {
      const pgbench = await memory.phase("pgbench", () => runPgbench(sizes.pgbench));
      const { fixture, track } = await memory.phase("reward setup (trackReferral)", () =>
        prepareRewardItems(db, url, rewardItemCount(sizes.rewards), sizes.rewards.concurrency),
      );
      const rewardRuns = await memory.phase("rewards", () => measureRewards(db, url, fixture, sizes.rewards));
      Object.assign(results, { pgbench, rewards: reportRewards(sizes.rewards, pgbench, track, rewardRuns, targets) });
    }

    // 2. Listing one large project.
    if (runs("list")) {
      const list = await memory.phase(`list setup (${sizes.users} users)`, () => prepareListProject(db, url, sizes.users));
      const cases = listCases(sizes.users);
      const listResults = await memory.phase("list users", () => measureListCases(db, list, cases, sizes.listRuns));
      reportList(list, sizes.listRuns, listResults, targets);
      for (const c of cases) {
        const result = listResults.find((r) => r.name === c.name)!;
        if (!flags.explain && listMet(result)) continue;
        console.log(`\nEXPLAIN ANALYZE: ${c.name}${listMet(result) ? "" : " (missed the target)"}\n${await explainCase(url, list, c)}`);
      }
      results.list = { users: list.users, seedMs: list.seedMs, cases: listResults };
    }

    // Searching a large project's people: by e-mail, name and short id.
    if (runs("people")) {
      const people = await memory.phase(`people search setup (${sizes.people} users)`, () => preparePeopleProject(db, url, sizes.people));
      const peopleResults = await memory.phase("people search", () => measurePeopleCases(db, url, people, peopleCases(people), sizes.searchRuns));
      reportPeopleSearch(people, sizes.searchRuns, peopleResults, targets);
      results.peopleSearch = { users: people.users, items: people.items, seedMs: people.seedMs, cases: peopleResults };
    }

    // 3. Searching a large project's deliveries (the support console).
    if (runs("deliveries")) {
      const deliveries = await memory.phase(`delivery search setup (${sizes.deliveries} deliveries)`, () => prepareDeliveryProject(db, url, sizes.deliveries));
      const searchResults = await memory.phase("delivery search", () => measureDeliveryCases(db, url, deliveries, deliveryCases(deliveries), sizes.searchRuns));
      reportDeliverySearch(deliveries, sizes.searchRuns, searchResults, targets);
      results.deliverySearch = { deliveries: deliveries.deliveries, seedMs: deliveries.seedMs, cases: searchResults };
    }

    // 4. Insight: the overview's queries and the exports, in a project of their own size.
    if (runs("overview")) {
      const { users, items, runs: overviewRuns } = sizes.overview;
      const insight = await memory.phase(`overview setup (${users} users, ${items} items)`, () => prepareOverviewProject(db, url, users, items));
      const cases = await memory.phase("overview", () => measureOverview(db, insight, overviewRuns));
      const queries = await memory.phase("overview queries", () => measureOverviewQueries(url, insight, overviewRuns));
      const exports: ExportRun[] = [];
      for (const run of measureExports(db, insight)) exports.push(await memory.phase("export", run));
      reportOverview(insight, overviewRuns, cases, queries, exports, targets);
      results.insight = { users, items, seedMs: insight.seedMs, cases, queries, exports };
    }

    // The referrer's own summary for one referrer with many referrals.
    if (runs("portal")) {
      const portal = await memory.phase(`portal setup (${sizes.portal.referrals} referrals)`, () => preparePortalProject(db, url, sizes.portal.referrals));
      const portalResults = await memory.phase("portal summary", () => measurePortal(db, portal, sizes.portal.runs));
      reportPortal(portal, sizes.portal.runs, portalResults, targets);
      results.portal = { referrals: portal.referrals, seedMs: portal.seedMs, cases: portalResults };
    }

    // 5. Memory over the whole run.
    memory.stop();
    reportMemory(memory, targets);

    targets.print();
    const durationS = (performance.now() - started) / 1000;
    const file = await writeResults({
      mode,
      finishedAt: new Date().toISOString(),
      durationS,
      environment: { node: process.version, nodeEnv: process.env.NODE_ENV, postgres, cores: os.cpus().length, loadAverage },
      sizes,
      widget,
      ...results,
      memory: { baselineRss: memory.baselineRss, peakGrowth: memory.peakGrowth, phases: memory.phases },
      targets: targets.all,
    });
    const missed = targets.missed.length;
    console.log(`\n${missed ? `${missed} target(s) MISSED` : "All targets met"} in ${durationS.toFixed(0)} s. Results: ${file}`);
    return missed ? 1 : 0;
  } finally {
    memory.stop();
    await db.$disconnect();
    if (flags["keep-db"]) console.log(`Kept database ${BENCH_DB}.`);
    else await dropDatabase(BENCH_DB);
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error("\nBenchmark failed:", error);
    process.exit(2);
  },
);
