import { createHash, randomUUID } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";

/** The smallest SQL surface both PGlite and node-postgres offer. */
export type SqlRunner = {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: T[] }>;
};

export const migrationsDir = () => path.resolve(/* turbopackIgnore: true */ process.cwd(), "prisma/migrations");

/** The advisory lock key of Prisma's schema engine, so that boots and `prisma migrate deploy` take turns. */
const PRISMA_MIGRATE_LOCK = 72707369;

/**
 * Applies committed migrations in order, keeping `_prisma_migrations` exactly as
 * `prisma migrate deploy` does (same table, sha256 checksums, same advisory lock), so either route can
 * follow the other. `db` must be one session (PGlite, a pg Client); a pg Pool is narrowed to one
 * checked-out client, since the lock and the transactions belong to a session.
 */
export async function applyMigrations(db: SqlRunner, dir = migrationsDir()): Promise<string[]> {
  if (!isPool(db)) return applyInSession(db, dir);
  const client = await db.connect();
  try {
    return await applyInSession(client, dir);
  } finally {
    client.release();
  }
}

type PoolLike = SqlRunner & { connect(): Promise<SqlRunner & { release(): void }>; idleCount: number };

function isPool(db: SqlRunner): db is PoolLike {
  const candidate = db as Partial<PoolLike>;
  return typeof candidate.connect === "function" && typeof candidate.idleCount === "number";
}

/** The committed migrations, in the order they apply. */
export async function migrationNames(dir = migrationsDir()): Promise<string[]> {
  return (await readdir(dir, { withFileTypes: true }))
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
}

/** Of `names`, those the database has not finished applying (what `prisma migrate deploy` would run). */
export async function unappliedMigrations(db: SqlRunner, names: readonly string[]): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    `SELECT migration_name AS name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((r) => r.name));
  return names.filter((name) => !applied.has(name));
}

async function applyInSession(db: SqlRunner, dir: string): Promise<string[]> {
  const names = await migrationNames(dir);
  await db.query(`SELECT pg_advisory_lock(${PRISMA_MIGRATE_LOCK})`);
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
    const { rows } = await db.query<{ migration_name: string; finished: boolean }>(
      `SELECT migration_name, finished_at IS NOT NULL AS finished FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`,
    );
    // A migration that `prisma migrate deploy` left failed may have half-applied; like deploy (P3009),
    // refuse to go on until someone resolves it.
    const failed = rows.filter((r) => !r.finished).map((r) => r.migration_name);
    if (failed.length > 0) {
      throw new Error(
        `Migrations failed earlier and are not resolved: ${failed.join(", ")}. ` +
          "Fix the database, then run `npx prisma migrate resolve --applied|--rolled-back <name>`.",
      );
    }
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
    await db.query(`SELECT pg_advisory_unlock(${PRISMA_MIGRATE_LOCK})`);
  }
}

/** A migration file holds many statements; PGlite's `query` takes one, so run it as a script. */
async function runScript(db: SqlRunner, sql: string) {
  const exec = (db as { exec?: (sql: string) => Promise<unknown> }).exec;
  if (exec) await exec.call(db, sql);
  else await db.query(sql); // node-postgres runs multi-statement text with the simple protocol
}
