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

/** An organisation and a fresh API key, from `npm run admin -- bootstrap`. */
export async function bootstrapOrganization(databaseUrl: string, name: string): Promise<{ organizationId: string; apiKey: string }> {
  const { stdout } = await execFileAsync(
    process.execPath,
    [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), "scripts/admin.ts", "bootstrap", "--email", "bench@referloop.test", "--password", "bench-only-password", "--org", name],
    { cwd: ROOT, env: { ...process.env, ...BENCH_SECRETS, DATABASE_URL: databaseUrl, NODE_ENV: "production" }, timeout: 120_000 },
  );
  const result = JSON.parse(stdout.trim().split("\n").at(-1)!) as { organizationId: string; apiKey: string };
  return { organizationId: result.organizationId, apiKey: result.apiKey };
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
