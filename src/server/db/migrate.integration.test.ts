import { randomBytes } from "node:crypto";
import { readdir } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, describe, expect, inject, it } from "vitest";
import { adminQuery, databaseUrl, withClient } from "@/test/db";
import { runNodeScript, type NodeRun } from "@/test/run-node";
import { applyMigrations, migrationsDir } from "./migrate";

const root = path.resolve(import.meta.dirname, "../../..");
const prismaCli = path.join(path.dirname(createRequire(import.meta.url).resolve("prisma/package.json")), "build/index.js");
const created: string[] = [];

async function freshDatabase(): Promise<string> {
  const name = `referloop_mig_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  created.push(name);
  return databaseUrl(name);
}

/** The standard Prisma CLI, through the schema engine shim that prisma.config.ts points it at. */
function prisma(url: string, ...args: string[]): Promise<NodeRun> {
  return runNodeScript(prismaCli, args, {
    cwd: root,
    env: { ...process.env, DATABASE_URL: url, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    timeout: 50_000,
  });
}

afterAll(async () => {
  for (const name of created) await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
});

// Needs a real PostgreSQL server; the suite's embedded fallback has none to create databases on.
describe.skipIf(!inject("templateDatabase"))("in-process migrator and prisma migrate", () => {
  it("applies every committed migration once and leaves a history prisma migrate accepts", { timeout: 60_000 }, async () => {
    const url = await freshDatabase();
    const all = (await readdir(migrationsDir(), { withFileTypes: true }))
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort();

    const first = await withClient(url, (c) => applyMigrations(c));
    expect(first).toEqual(all);
    const second = await withClient(url, (c) => applyMigrations(c));
    expect(second).toEqual([]);

    const status = await prisma(url, "migrate", "status");
    expect(status.output).toContain("Database schema is up to date");
    expect(status.code).toBe(0);
    const deploy = await prisma(url, "migrate", "deploy");
    expect(deploy.output).toContain("No pending migrations to apply");
    expect(deploy.code).toBe(0);
  });

  it("applies nothing after prisma migrate deploy", { timeout: 60_000 }, async () => {
    const url = await freshDatabase();
    const deploy = await prisma(url, "migrate", "deploy");
    expect(deploy.output).toContain("All migrations have been successfully applied");
    expect(deploy.code).toBe(0);
    expect(await withClient(url, (c) => applyMigrations(c))).toEqual([]);
  });
});
