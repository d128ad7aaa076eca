/**
 * What every drill runs against: its own PostgreSQL server (initdb on a spare port, so it may be
 * stopped), a migrated database, one or two production servers on it, the webhook receiver, and a
 * project whose campaign has the drill's webhooks. Ports 3410 (PostgreSQL), 3411-3412 (apps), 3413
 * (receiver), unless DRILLS_PORT moves the block.
 */
import path from "node:path";
import pg from "pg";
import { AppServer, ensureBuild, WORK_DIR } from "../harness/app-server";
import { databaseUrl, withClient } from "../harness/databases";
import { PrivatePostgres } from "../harness/private-postgres";
import { Receiver, type Behaviour } from "../harness/receiver";
import { api, BENCH_QUOTAS, bootstrapOrganization, createProject, createWebhook, migrate, raiseQuotas, type Project } from "../harness/setup";

const DATABASE = "referloop_bench_drill";
const BASE_PORT = Number(process.env.DRILLS_PORT ?? 3410);

/** A client that survives its server going away: the drill reconnects after a restart. */
async function connect(url: string) {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => undefined);
  await client.connect();
  return client;
}

export type DrillEnvOptions = {
  name: string;
  /** Webhook name -> how the receiver answers it. */
  webhooks: Record<string, Behaviour>;
  /** Environment of the app servers (beyond serverEnv's bench defaults). */
  appEnv?: Record<string, string>;
};

export class DrillEnv {
  readonly apps: AppServer[] = [];
  webhookIds: Record<string, string> = {};
  project!: Project;
  apiKey!: string;
  private readonly stamp = new Date().toISOString().replace(/[:.]/g, "-");

  private constructor(
    readonly options: DrillEnvOptions,
    readonly postgres: PrivatePostgres,
    readonly receiver: Receiver,
    readonly databaseUrl: string,
    /** The drill's own connection, for seeding and checks (reconnect after a PostgreSQL restart). */
    public db: pg.Client,
  ) {}

  static async create(options: DrillEnvOptions, log: (line: string) => void): Promise<DrillEnv> {
    ensureBuild(log);
    const postgres = await PrivatePostgres.start({ port: BASE_PORT });
    let receiver: Receiver | undefined;
    try {
      await withClient(postgres.url(), (c) => c.query(`CREATE DATABASE ${DATABASE}`));
      const url = databaseUrl(DATABASE, postgres.url());
      await migrate(url);
      receiver = await Receiver.start(BASE_PORT + 3);
      const db = await connect(url);
      const env = new DrillEnv(options, postgres, receiver, url, db);
      const organization = await bootstrapOrganization(url, "Referloop drills");
      env.apiKey = organization.apiKey;
      await raiseQuotas(url, organization.organizationId, BENCH_QUOTAS);
      const app = await env.startApp(0);
      env.project = await createProject(app.origin, env.apiKey, `Drill ${options.name}`);
      for (const [name, behaviour] of Object.entries(options.webhooks)) {
        await receiver.configure(name, behaviour);
        env.webhookIds[name] = await createWebhook(app.origin, env.apiKey, env.project, name, receiver.url(name));
      }
      return env;
    } catch (error) {
      await receiver?.stop();
      await postgres.destroy();
      throw error;
    }
  }

  /** Starts app instance `index` (0: port +1, 1: port +2), replacing a stopped one. */
  async startApp(index: 0 | 1): Promise<AppServer> {
    const app = await AppServer.start({
      port: BASE_PORT + 1 + index,
      databaseUrl: this.databaseUrl,
      logFile: path.join(WORK_DIR, "logs", `drill-${this.options.name}-${this.stamp}-app${index}.log`),
      env: this.options.appEnv,
    });
    this.apps[index] = app;
    return app;
  }

  /** Another project with webhooks to the receiver's paths (rows seeded into it stay out of the drill project's invariants). */
  async addProject(name: string, webhookNames: string[]) {
    const project = await createProject(this.app.origin, this.apiKey, name);
    const webhookIds: Record<string, string> = {};
    for (const hook of webhookNames) webhookIds[hook] = await createWebhook(this.app.origin, this.apiKey, project, hook, this.receiver.url(hook));
    return { project, webhookIds };
  }

  get app() {
    return this.apps[0]!;
  }

  /** A REST call as the drill's organisation. */
  call<T>(method: string, pathname: string, body?: unknown, origin = this.app.origin) {
    return api<T>(origin, this.apiKey, method, pathname, body);
  }

  publicPath(pathname: string) {
    return `/api/v1/public/projects/${this.project.id}${pathname}`;
  }

  /** `count` referrers created through the API (their counters start at 0), with their referral codes. */
  async createReferrers(count: number): Promise<{ clientId: string; code: string }[]> {
    const referrers: { clientId: string; code: string }[] = [];
    for (let i = 1; i <= count; i++) {
      const user = await this.call<{ referralCode: string }>("POST", `/projects/${this.project.id}/users`, { clientProvidedId: `referrer-${i}` });
      referrers.push({ clientId: `referrer-${i}`, code: user.referralCode });
    }
    return referrers;
  }

  async reconnect() {
    await this.db.end().catch(() => undefined);
    this.db = await connect(this.databaseUrl);
  }

  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    return (await this.db.query<T>(sql, params)).rows;
  }

  /** Waits until no delivery is Pending (or the time is up); returns how many still are. */
  async waitForDeliveries(timeoutMs: number): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const [row] = await this.query<{ n: string }>(`SELECT count(*) AS n FROM "Delivery" WHERE "status" = 'Pending'`);
      const left = Number(row!.n);
      if (left === 0 || Date.now() > deadline) return left;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  serverLogs() {
    return this.apps.map((a, i) => `--- app ${i} (${a.options.logFile})\n${a.tailLog(15)}`).join("\n");
  }

  async destroy() {
    for (const app of this.apps) await app?.stop(10_000);
    await this.receiver.stop();
    await this.db.end().catch(() => undefined);
    await this.postgres.destroy();
  }
}
