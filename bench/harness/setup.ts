/**
 * Setting up a bench database through the app's own front doors: `prisma migrate deploy`, the admin
 * command for an organisation and its API key, then the REST API for projects and webhooks (so the
 * app hashes and encrypts its secrets itself). Bulk rows come from seed-sql.ts instead.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { ROOT } from "./app-server";
import { BENCH_SECRETS } from "./app-server";

const execFileAsync = promisify(execFile);

/** Applies the committed migrations with the Prisma CLI, as a deploy does. */
export async function migrate(databaseUrl: string) {
  await execFileAsync(path.join(ROOT, "node_modules/.bin/prisma"), ["migrate", "deploy"], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    timeout: 180_000,
  });
}

/** The account the bench bootstraps (and signs in to the dashboard with). */
const BENCH_ACCOUNT = { email: "bench@referloop.test", password: "bench-only-password" };

/** An organisation and a fresh API key, from `npm run admin -- bootstrap`. */
export async function bootstrapOrganization(databaseUrl: string, name: string): Promise<{ organizationId: string; apiKey: string }> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", "bootstrap", "--email", BENCH_ACCOUNT.email, "--password", BENCH_ACCOUNT.password, "--org", name],
    { cwd: ROOT, env: { ...process.env, ...BENCH_SECRETS, DATABASE_URL: databaseUrl, NODE_ENV: "production" }, timeout: 120_000 },
  );
  const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as { organizationId: string; apiKey: string };
  return { organizationId: result.organizationId, apiKey: result.apiKey };
}

/** Per minute, the most the admin command takes: over 16,000 requests a second. */
export const BENCH_QUOTAS = { api: 1_000_000, sdk: 1_000_000 } as const;

/**
 * The organisation's own request quotas, raised as an operator would (`npm run admin -- rate-limits`):
 * every request is still counted against them, as in production; only the ceiling is the bench's.
 */
export async function raiseQuotas(databaseUrl: string, organizationId: string, perMinute: { api: number; sdk: number }) {
  await execFileAsync(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", "rate-limits", "--org", organizationId, "--api", String(perMinute.api), "--sdk", String(perMinute.sdk)],
    { cwd: ROOT, env: { ...process.env, ...BENCH_SECRETS, DATABASE_URL: databaseUrl, NODE_ENV: "production" }, timeout: 120_000 },
  );
}

/**
 * Signs in as the bootstrap account and renders the dashboard's overview page, as an operator does
 * before any load: Next.js then has its page modules (and whatever they install) loaded, as a
 * production server that has served its dashboard has. Returns how long the page took.
 */
export async function openDashboard(origin: string): Promise<number> {
  const started = performance.now();
  const cookies = new Map<string, string>();
  const keep = (res: Response) => {
    for (const c of res.headers.getSetCookie()) {
      const [pair] = c.split(";", 1);
      const at = pair!.indexOf("=");
      cookies.set(pair!.slice(0, at), pair!.slice(at + 1));
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  const csrf = await fetch(`${origin}/api/auth/csrf`);
  keep(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const signIn = await fetch(`${origin}/api/auth/callback/credentials`, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: cookie() },
    body: new URLSearchParams({ csrfToken, email: BENCH_ACCOUNT.email, password: BENCH_ACCOUNT.password, json: "true" }),
  });
  keep(signIn);
  if (![...cookies.keys()].some((k) => k.endsWith("session-token"))) throw new Error(`signing in to the dashboard failed (${signIn.status})`);
  const page = await fetch(`${origin}/dashboard`, { headers: { cookie: cookie() }, redirect: "manual" });
  const html = await page.text();
  if (page.status !== 200 || !html.includes("<html")) throw new Error(`the dashboard answered ${page.status}`);
  return performance.now() - started;
}

export type Project = { id: string; campaignId: string; secret: string };

/** A JSON API call with the organisation's key; throws unless the status is `expect`. */
export async function api<T>(origin: string, apiKey: string, method: string, pathname: string, body?: unknown, expect = [200, 201]): Promise<T> {
  const res = await fetch(`${origin}/api/v1/public${pathname}`, {
    method,
    headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!expect.includes(res.status)) throw new Error(`${method} ${pathname} answered ${res.status}: ${text}`);
  return (text ? JSON.parse(text) : null) as T;
}

export async function createProject(origin: string, apiKey: string, name: string): Promise<Project> {
  const p = await api<{ uniqueId: string; campaignId: string; projectSecret: string }>(origin, apiKey, "POST", "/projects", {
    name,
    appType: "Web",
    referralRedirectLink: "https://app.example.com/join",
  });
  return { id: p.uniqueId, campaignId: p.campaignId, secret: p.projectSecret };
}

export async function createWebhook(origin: string, apiKey: string, project: Project, name: string, url: string): Promise<string> {
  const w = await api<{ id: string }>(origin, apiKey, "POST", `/projects/${project.id}/webhooks/${project.campaignId}`, {
    name,
    url,
    secret: `bench-secret-${name}`,
  });
  return w.id;
}
