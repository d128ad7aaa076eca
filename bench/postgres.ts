/** The server the benchmark runs against, and its throw-away databases. */
import { withClient } from "@/server/db/with-client";

export { withClient };
import { applyMigrations } from "@/server/db/migrate";

/** A maintenance connection (CREATE/DROP DATABASE); the local trust-auth server by default. */
export const adminUrl = () =>
  process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;


export function dropDatabase(name: string) {
  return withClient(adminUrl(), (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Drops any leftover of an earlier run, then creates the database empty. */
export async function recreateDatabase(name: string) {
  await dropDatabase(name);
  await withClient(adminUrl(), (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
}

/** A fresh database with the committed migrations applied, as the app applies them at boot. */
export async function createMigratedDatabase(name: string): Promise<string> {
  await recreateDatabase(name);
  const url = databaseUrl(name);
  await withClient(url, (c) => applyMigrations(c));
  return url;
}
