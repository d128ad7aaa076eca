/**
 * Everything a run measures against: the production server on a fresh, migrated and seeded database
 * (its organisation's quotas raised, its dashboard page served once before any load), the webhook receiver, the organisation's API key, and two projects (the hot paths, and one with a
 * million app users for the list).
 */
import path from "node:path";
import pg from "pg";
import { AppServer, ensureBuild, WORK_DIR } from "../harness/app-server";
import { adminUrl as defaultAdminUrl, adminUrlOf, databaseUrl as urlOfDatabase, dropDatabase, recreateDatabase } from "../harness/databases";
import { PrivatePostgres } from "../harness/private-postgres";
import { Receiver } from "../harness/receiver";
import { seedManyAppUsers, seedReferrers, seedRewardHistory } from "../harness/seed-sql";
import { BENCH_QUOTAS, bootstrapOrganization, createProject, createWebhook, migrate, openDashboard, raiseQuotas, type Project } from "../harness/setup";
import { SqlCounter } from "./meters";
import type { Settings } from "./settings";

export const BENCH_DATABASE = "referloop_bench_http";
export const PREFIX = { referrer: "ref_", listUser: "cust_" } as const;

export type Fixture = {
  settings: Settings;
  databaseUrl: string;
  database: string;
  adminUrl: string;
  /** The bench created the database (and drops it afterwards). */
  ownsDatabase: boolean;
  server: AppServer;
  receiver: Receiver;
  privatePostgres?: PrivatePostgres;
  /** A connection of the orchestrator: seeding, checks between runs (never during one). */
  db: pg.Client;
  sql: SqlCounter | null;
  apiKey: string;
  /** The hot paths' project; its campaign has one webhook, "hot", to the receiver. */
  hot: Project & { webhookId: string };
  list: Project;
  postgresVersion: string;
  setupTimings: Record<string, number>;
  cpuProfileDir?: string;
};

async function timed<T>(timings: Record<string, number>, name: string, fn: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await fn();
  } finally {
    timings[name] = Math.round(performance.now() - started);
  }
}

/**
 * Builds the fixture; `made` collects each part as it is made, so the caller can tear down a
 * fixture that failed half way.
 */
export async function setUp(settings: Settings, log: (line: string) => void, made: Partial<Fixture>): Promise<Fixture> {
  const timings: Record<string, number> = {};
  const built = ensureBuild(log);
  if (built) log("Built.");
  let privatePostgres: PrivatePostgres | undefined;
  let adminUrl: string;
  let databaseUrl: string;
  let ownsDatabase = true;
  if (settings.countSql) {
    log(`--count-sql: a private PostgreSQL with pg_stat_statements on port ${settings.ports.privatePostgres}.`);
    privatePostgres = await PrivatePostgres.start({
      port: settings.ports.privatePostgres,
      settings: { shared_preload_libraries: "'pg_stat_statements'", "pg_stat_statements.track": "top", "pg_stat_statements.track_planning": "on", "pg_stat_statements.max": 10000 },
    });
    made.privatePostgres = privatePostgres;
    adminUrl = privatePostgres.url();
    databaseUrl = urlOfDatabase(BENCH_DATABASE, adminUrl);
  } else if (process.env.DATABASE_URL) {
    databaseUrl = process.env.DATABASE_URL;
    adminUrl = adminUrlOf(databaseUrl);
    ownsDatabase = false;
    log(`DATABASE_URL is set: seeding its database as it is (nothing is dropped; unset it for a fresh ${BENCH_DATABASE}).`);
  } else {
    adminUrl = defaultAdminUrl();
    databaseUrl = urlOfDatabase(BENCH_DATABASE, adminUrl);
  }
  const database = decodeURIComponent(new URL(databaseUrl).pathname.slice(1));
  Object.assign(made, { database, adminUrl, ownsDatabase });
  if (ownsDatabase) await recreateDatabase(database, adminUrl);
  await timed(timings, "migrate", () => migrate(databaseUrl));
  const { apiKey, organizationId } = await timed(timings, "bootstrap", () => bootstrapOrganization(databaseUrl, "Referloop bench"));
  // Before the server starts: an instance reads an organisation's quotas at most once a minute.
  await timed(timings, "raiseQuotas", () => raiseQuotas(databaseUrl, organizationId, BENCH_QUOTAS));

  const receiver = (made.receiver = await Receiver.start(settings.ports.receiver));
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  const cpuProfileDir = settings.cpuProfile ? path.join(WORK_DIR, "profiles", stamp) : undefined;
  const server = (made.server = await timed(timings, "serverStart", () =>
    AppServer.start({ port: settings.ports.app, databaseUrl, logFile: path.join(WORK_DIR, "logs", `bench-${stamp}.log`), cpuProfileDir }),
  ));
  await timed(timings, "dashboardPage", () => openDashboard(server.origin));
  const db = (made.db = new pg.Client({ connectionString: databaseUrl }));
  await db.connect();

  const hotProject = await createProject(server.origin, apiKey, "Bench hot paths");
  const webhookId = await createWebhook(server.origin, apiKey, hotProject, "hot", receiver.url("hot"));
  const list = await createProject(server.origin, apiKey, "Bench list");

  log(`Seeding ${settings.listUsers.toLocaleString("en")} app users in one project (SQL, indexes rebuilt after) ...`);
  await timed(timings, "seedListUsers", () => seedManyAppUsers(db, list.id, settings.listUsers, PREFIX.listUser));
  await timed(timings, "seedReferrers", () => seedReferrers(db, hotProject.id, settings.referrers, PREFIX.referrer));
  // A program that has run for a while: one earlier reward per referrer (see seedRewardHistory).
  await timed(timings, "seedRewardHistory", () =>
    seedRewardHistory(db, { projectId: hotProject.id, campaignId: hotProject.campaignId, webhookId, referrers: settings.referrers, count: settings.referrers }),
  );
  await timed(timings, "vacuumAnalyze", async () => {
    await db.query("VACUUM ANALYZE");
    await db.query("CHECKPOINT");
  });
  const { rows } = await db.query<{ v: string }>("SELECT current_setting('server_version') AS v");
  const sql = settings.countSql ? await SqlCounter.create(adminUrl, database) : null;
  return {
    settings,
    databaseUrl,
    database,
    adminUrl,
    ownsDatabase,
    server,
    receiver,
    privatePostgres,
    db,
    sql,
    apiKey,
    hot: { ...hotProject, webhookId },
    list,
    postgresVersion: rows[0]!.v,
    setupTimings: timings,
    cpuProfileDir,
  };
}

export async function tearDown(f: Partial<Fixture>, keepDb: boolean) {
  await f.server?.stop();
  await f.receiver?.stop();
  await f.db?.end().catch(() => undefined);
  if (f.ownsDatabase && f.database && f.adminUrl && !keepDb) await dropDatabase(f.database, f.adminUrl);
  await f.privatePostgres?.destroy();
}
