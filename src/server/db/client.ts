import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaPGlite } from "pglite-prisma-adapter";
import { PrismaClient } from "@/generated/prisma/client";
import { getConfig } from "@/server/config";
import { applyMigrations } from "./migrate";
import { CredentialCache, followCredentialChanges } from "./credential-cache";
import { preparedStatementName, runPreparedOn } from "./prepared-statements";

export type Db = PrismaClient;

/**
 * PostgreSQL through DATABASE_URL, else the embedded PGlite in the data folder with migrations
 * applied on open. Kept on globalThis: Next's dev reloads and the instrumentation hook do not
 * share module state, and PGlite allows one opener per folder.
 */
export function getDb(): Promise<Db> {
  const g = globalThis as { __referloopDb?: Promise<Db> };
  g.__referloopDb ??= openDb().catch((error) => {
    g.__referloopDb = undefined;
    throw error;
  });
  return g.__referloopDb;
}

/**
 * This process's credential cache, following changes on DATABASE_URL's PostgreSQL. On the embedded
 * PGlite nothing listens, so nothing is cached (one process, where the lookup is a function call).
 */
export function getCredentialCache(): CredentialCache {
  const g = globalThis as { __referloopCredentials?: CredentialCache };
  if (!g.__referloopCredentials) {
    const cache = (g.__referloopCredentials = new CredentialCache());
    const url = getConfig().databaseUrl;
    if (url) followCredentialChanges(url, cache);
  }
  return g.__referloopCredentials;
}

/** One pool (of `size` connections) for Prisma's adapter and the prepared statements, which skip Prisma's engine. */
export function openPostgres(url: string, size = getConfig().databasePoolSize): Db {
  const pool = new pg.Pool({ connectionString: url, max: size });
  // An idle connection's failure (PostgreSQL restarted) surfaces on the next query that needs one;
  // unheard, the pool's event would end the process before Prisma's first query adds its own listener.
  pool.on("error", () => {});
  const db = new PrismaClient({ adapter: new PrismaPg(pool, { statementNameGenerator: preparedStatementName, disposeExternalPool: true }) });
  runPreparedOn(db, pool);
  return db;
}

export async function openPglite(dir: string | undefined): Promise<{ db: Db; pglite: PGlite }> {
  if (dir) await mkdir(dir, { recursive: true });
  // The migrations create pg_trgm (the app-user search index); PGlite only offers the extensions it is given.
  const pglite = await PGlite.create(dir, { extensions: { pg_trgm } });
  await applyMigrations(pglite);
  return { db: new PrismaClient({ adapter: new PrismaPGlite(pglite) }), pglite };
}

async function openDb(): Promise<Db> {
  const config = getConfig();
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  return (await openPglite(path.join(config.dataDir, "pglite"))).db;
}
