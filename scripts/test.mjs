#!/usr/bin/env node
/**
 * `npm test`: type-check, lint, unit and integration tests (each file in its own fresh PostgreSQL
 * database; the schema/migration check is one of them), one production build, Playwright in Chromium
 * against it, a smoke test of the embedded default, and the fault drills against that build. Without a reachable
 * PostgreSQL, everything runs on embedded PGlite and says so (the drills are skipped). Stops at the
 * first failing step.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync } from "node:fs";
import pg from "pg";

const ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
// Named per checkout when E2E_DATABASE is set, so two checkouts on one server can run their e2e at once.
const E2E_DB = process.env.E2E_DATABASE ?? "referloop_e2e";

function run(label, command, args, env = {}) {
  console.log(`\n=== ${label}: ${command} ${args.join(" ")}`);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
    child.on("exit", (code, signal) => {
      console.log(`=== ${label}: ${code === 0 ? "ok" : "FAILED"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
      if (code === 0) resolve();
      else reject(new Error(`${label} failed (${signal ?? code})`));
    });
  });
}

async function postgresReachable() {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    return client;
  } catch {
    return null;
  }
}

/** A fresh, migrated database for the e2e run; its URL, or undefined for the embedded fallback. */
async function prepareE2eDatabase() {
  const admin = await postgresReachable();
  if (!admin) {
    console.warn("[tests] PostgreSQL is not reachable at " + ADMIN_URL + ": the e2e tests run on embedded PGlite.");
    return undefined;
  }
  await admin.query(`DROP DATABASE IF EXISTS "${E2E_DB}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${E2E_DB}"`);
  await admin.end();
  const url = new URL(ADMIN_URL);
  url.pathname = `/${E2E_DB}`;
  await run("migrate e2e database", "npx", ["prisma", "migrate", "deploy"], { DATABASE_URL: url.toString() });
  return url.toString();
}

const RESULTS = ".data/test-results";
const DRILL_RESULTS = ".data/bench-http/drills-latest.json";
const smoke = { passed: 0, failed: 0 };

/** Counts from the runners' JSON reports, for one closing line over the whole run. */
function summary() {
  const read = (file) => (existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : null);
  const vitest = read(`${RESULTS}/vitest.json`);
  const playwright = read(`${RESULTS}/playwright.json`);
  const drills = read(DRILL_RESULTS)?.results ?? [];
  const drillsPassed = drills.filter((d) => d.passed).length;
  const passed = (vitest?.numPassedTests ?? 0) + (playwright?.stats?.expected ?? 0) + smoke.passed + drillsPassed;
  const failed =
    (vitest?.numFailedTests ?? 0) + (playwright?.stats?.unexpected ?? 0) + (playwright?.stats?.flaky ?? 0) + smoke.failed + drills.length - drillsPassed;
  const skipped = (vitest?.numPendingTests ?? 0) + (vitest?.numTodoTests ?? 0) + (playwright?.stats?.skipped ?? 0);
  return `${passed} passed, ${failed} failed, ${skipped} skipped`;
}

const only = process.argv[2];
/**
 * Steps a full run leaves out because another step already does their work: db-check's command is run,
 * with the same arguments and the same assertion, by scripts/db-check.test.ts in the unit tests.
 */
const ON_REQUEST = new Set(["db-check"]);
/** Set once this run's typecheck step passed: `tsc --noEmit` over the project and Next's route types. */
let typesChecked = false;
rmSync(RESULTS, { recursive: true, force: true });
rmSync(DRILL_RESULTS, { force: true });
const steps = {
  // Next's route types first (.next/types, what `next build` generates and checks), so that tsc checks
  // the whole program the build would: the build of this run then skips its own TypeScript pass.
  typecheck: async () => {
    await run("route types", "npx", ["next", "typegen"]);
    await run("typecheck", "npx", ["tsc", "--noEmit"]);
    typesChecked = true;
  },
  lint: () => run("lint", "npx", ["eslint", "."]),
  "db-check": () => run("db:check", "node", ["scripts/db-check.mjs"]),
  unit: () =>
    run("unit and integration tests", "npx", ["vitest", "run", "--reporter=default", "--reporter=json", `--outputFile.json=${RESULTS}/vitest.json`]),
  // Without the typecheck step in the same run (`node scripts/test.mjs build`), the build checks types
  // itself. No Turbopack cache: CI builds once in a fresh checkout (see next.config.ts).
  build: () =>
    run("build", "npm", ["run", "build"], { REFERLOOP_BUILD_CACHE: "0", ...(typesChecked ? { REFERLOOP_BUILD_TYPES_CHECKED: "1" } : {}) }),
  e2e: async () => {
    if (!existsSync(".next/BUILD_ID") || !existsSync("dist/server/server.mjs")) throw new Error("no production build: run the build step first");
    const databaseUrl = await prepareE2eDatabase();
    const dataDir = `.data/e2e-${process.pid}`;
    const env = databaseUrl ? { DATABASE_URL: databaseUrl } : { DATABASE_URL: "", REFERLOOP_DATA_DIR: dataDir };
    try {
      await run("e2e (Playwright, Chromium)", "npx", ["playwright", "test"], { ...env, PLAYWRIGHT_JSON_OUTPUT_FILE: `${RESULTS}/playwright.json` });
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  smoke: () =>
    run("embedded default smoke test", "node", ["scripts/smoke-embedded.mjs"]).then(
      () => (smoke.passed = 1),
      (error) => {
        smoke.failed = 1;
        throw error;
      },
    ),
  // The fault drills, each under two minutes: PostgreSQL restarted under load, SIGKILL in a delivery
  // backlog, a slow receiver, two instances (bench/drills). They need PostgreSQL's own programs.
  drills: async () => {
    const admin = await postgresReachable();
    if (!admin) return console.warn("[tests] PostgreSQL is not reachable: the fault drills need it and are skipped.");
    await admin.end();
    await run("fault drills", "npx", ["tsx", "bench/drills/run.ts"]);
  },
};

try {
  for (const [name, step] of Object.entries(steps)) if (only ? only === name : !ON_REQUEST.has(name)) await step();
  console.log("\nAll test steps passed.");
  console.log(`tests: ${summary()}`);
} catch (error) {
  console.error(`\n${error.message}`);
  console.log(`tests: ${summary()}`);
  process.exit(1);
}
