import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** The smallest SQL surface both PGlite and node-postgres offer. */
export type SqlRunner = {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
};

export const migrationsDir = () => path.resolve(process.cwd(), "prisma/migrations");

/**
 * Applies committed migrations in order, keeping `_prisma_migrations` exactly as
 * `prisma migrate deploy` does (same table, sha256 checksums), so either route can follow the other.
 * An advisory lock makes concurrent boots against one PostgreSQL take turns.
 */
export async function applyMigrations(db: SqlRunner, dir = migrationsDir()): Promise<string[]> {
  const names = (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  await db.query("SELECT pg_advisory_lock(727274)");
  try {
    await db.query(`CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
      "id" VARCHAR(36) PRIMARY KEY NOT NULL,
      "checksum" VARCHAR(64) NOT NULL,
      "finished_at" TIMESTAMPTZ,
      "migration_name" VARCHAR(255) NOT NULL,
      "logs" TEXT,
      "rolled_back_at" TIMESTAMPTZ,
      "started_at" TIMESTAMPTZ NOT NULL DEFAULT now(),
      "applied_steps_count" INTEGER NOT NULL DEFAULT 0)`);
    const { rows } = await db.query<{ migration_name: string }>(
      `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Set(rows.map((r) => r.migration_name));
    const done: string[] = [];
    for (const name of names) {
      if (applied.has(name)) continue;
      const sql = await readFile(path.join(dir, name, "migration.sql"), "utf8");
      const checksum = createHash("sha256").update(sql).digest("hex");
      await db.query("BEGIN");
      try {
        await runScript(db, sql);
        await db.query(
          `INSERT INTO "_prisma_migrations" (id, checksum, finished_at, migration_name, applied_steps_count)
           VALUES ($1, $2, now(), $3, 1)`,
          [randomUUID(), checksum, name],
        );
        await db.query("COMMIT");
      } catch (error) {
        await db.query("ROLLBACK");
        throw new Error(`Migration ${name} failed: ${(error as Error).message}`, { cause: error });
      }
      done.push(name);
    }
    return done;
  } finally {
    await db.query("SELECT pg_advisory_unlock(727274)");
  }
}

/** A migration file holds many statements; PGlite's `query` takes one, so run it as a script. */
async function runScript(db: SqlRunner, sql: string) {
  const exec = (db as { exec?: (sql: string) => Promise<unknown> }).exec;
  if (exec) await exec.call(db, sql);
  else await db.query(sql); // node-postgres runs multi-statement text with the simple protocol
}
