import { randomBytes } from "node:crypto";
import { inject } from "vitest";
import type { Db } from "@/server/db/client";
import { openPglite, openPostgres } from "@/server/db/client";
import { withClient } from "@/server/db/with-client";

export { withClient };

export const adminUrl = () => process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** The URL of another database on the admin server. */
export function databaseUrl(name: string): string {
  const url = new URL(adminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export type TestDb = { db: Db; url: string | undefined; drop(): Promise<void> };

/**
 * A fresh database for one test file: a copy of the migrated template on the local PostgreSQL,
 * or an in-memory PGlite when the suite runs without PostgreSQL.
 */
export async function createTestDb(): Promise<TestDb> {
  const template = inject("templateDatabase");
  if (!template) {
    const { db, pglite } = await openPglite(undefined);
    return { db, url: undefined, drop: async () => (await db.$disconnect(), await pglite.close()) };
  }
  const name = `referloop_t_${randomBytes(6).toString("hex")}`;
  await adminQuery(`CREATE DATABASE "${name}" TEMPLATE "${template}"`);
  const url = databaseUrl(name);
  const db = openPostgres(url);
  return {
    db,
    url,
    drop: async () => {
      await db.$disconnect();
      await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    },
  };
}

export async function adminQuery(sql: string) {
  return withClient(adminUrl(), (client) => client.query(sql));
}
