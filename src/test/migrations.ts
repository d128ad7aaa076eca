import { randomBytes } from "node:crypto";
import { cp, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import type pg from "pg";
import { applyMigrations, migrationsDir } from "@/server/db/migrate";
import { adminQuery, databaseUrl, withClient } from "./db";

/**
 * Runs `check` on a new database holding the committed migrations up to, not including, `migration`
 * (to write rows as they stood before it, then apply the rest with applyMigrations and look at what
 * it made of them), and drops the database afterwards.
 */
export async function withDatabaseBefore<T>(migration: string, check: (db: pg.Client) => Promise<T>): Promise<T> {
  const name = `referloop_mig_${randomBytes(6).toString("hex")}`;
  const scratch = await mkdtemp(path.join(tmpdir(), "referloop-migrations-"));
  const drop = async () => {
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await rm(scratch, { recursive: true, force: true });
  };
  try {
    await adminQuery(`CREATE DATABASE "${name}"`);
    const before = (await readdir(migrationsDir(), { withFileTypes: true })).filter((e) => e.isDirectory() && e.name < migration);
    for (const entry of before) await cp(path.join(migrationsDir(), entry.name), path.join(scratch, entry.name), { recursive: true });
    await cp(path.join(migrationsDir(), "migration_lock.toml"), path.join(scratch, "migration_lock.toml"));
    const url = databaseUrl(name);
    await withClient(url, (db) => applyMigrations(db, scratch));
    return await withClient(url, check);
  } finally {
    await drop();
  }
}
