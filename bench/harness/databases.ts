/** Throw-away databases on a PostgreSQL server, through plain `pg` (no application code). */
import pg from "pg";

/** A maintenance connection (CREATE/DROP DATABASE); the local trust-auth server by default. */
export const adminUrl = () =>
  process.env.BENCH_DATABASE_ADMIN_URL ?? process.env.TEST_DATABASE_ADMIN_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";

/** Runs `fn` with a client connected to `url`, and closes it after. */
export async function withClient<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/**
 * Starts a run at a checkpoint. After one, the first change of each page writes the whole page to
 * the WAL, so a run that followed another touching the same pages skipped those images and looked
 * cheaper than the one before it (scenario 3's REST run paid 2.4 full-page images per reward, the SDK
 * run after it 0.2). pgbench's ceilings and every bench:http run (before its warm-up) start here.
 */
export const checkpoint = (url: string) => withClient(url, (c) => c.query("CHECKPOINT"));

/** The URL of database `name` on the server of `admin` (default: the bench's admin URL). */
export function databaseUrl(name: string, admin = adminUrl()): string {
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

/** The admin (postgres database) URL of the server that `url` points at. */
export const adminUrlOf = (url: string) => databaseUrl("postgres", url);

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;

export function dropDatabase(name: string, admin = adminUrl()) {
  return withClient(admin, (c) => c.query(`DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`));
}

/** Drops any leftover of an earlier run, then creates the database empty. */
export async function recreateDatabase(name: string, admin = adminUrl()) {
  await dropDatabase(name, admin);
  await withClient(admin, (c) => c.query(`CREATE DATABASE ${quoteIdent(name)}`));
}
