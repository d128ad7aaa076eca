import pg from "pg";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "./client";

const MARK = "/* prepared */";
const MARKED = Prisma.raw(`${MARK} `);

/** What runs a raw statement: the app's client, or the client of a transaction. */
type Queryable = Pick<Prisma.TransactionClient, "$queryRaw">;

/**
 * A raw statement whose best plan does not depend on its values (a lookup by a unique key, the reward
 * claim, tracking, a delivery's result), as a tagged template: `await prepared<Row>(db)`SELECT ...``.
 * PostgreSQL parses it once per connection and, after five custom plans, may keep a generic one.
 * Planning was most of PostgreSQL's work on the API's paths: the reward's item lookup took 0.8 ms
 * parsed and planned each time, 0.2 ms prepared. Statements written with planned() are planned for
 * their values every time: under a generic plan the app-user search's `ILIKE '%term%'` answered in
 * 2.6 s (p50) at 1,000,000 users instead of 20 to 40 ms, and the delivery claim took 10 to 97 s with
 * 50,000 due (see claim-attempts.ts).
 *
 * Outside a transaction, on PostgreSQL, the statement goes straight to the pool the Prisma client's
 * adapter uses (see runPreparedOn): Prisma's engine costs about 45 µs of Node CPU per raw statement
 * on the benchmark machine (against 20 µs for the whole round trip through pg), and these are the
 * API's most frequent statements. Dates are sent, and timestamps and bigints read, as Prisma's adapter
 * does (a `numeric` would come back as a string, not a Decimal: none of these statements reads one),
 * and a failure of either kind is recognised by src/server/domain/db-errors.ts.
 */
export const prepared =
  <T>(db: Queryable) =>
  (strings: TemplateStringsArray, ...values: Prisma.Sql["values"]): Promise<T[]> =>
    query<T>(db, Prisma.sql`${MARKED}${Prisma.sql(strings, ...values)}`);

/**
 * A raw statement planned for its values every time (never named), such as the app-user search, sent
 * as prepared() sends its own: straight to the pool outside a transaction, with the same conversions.
 * Through Prisma's engine, a search's page of twenty users cost about a tenth of the list's Node CPU.
 */
export const planned =
  <T>(db: Queryable) =>
  (strings: TemplateStringsArray, ...values: Prisma.Sql["values"]): Promise<T[]> =>
    query<T>(db, Prisma.sql(strings, ...values));

/**
 * As planned(), for reading many rows (the CSV exports): each row handed to `onRow` as pg parses it,
 * as an array of its columns in the statement's order, with `timestamp` columns as ISO 8601 text (as
 * Date#toISOString writes them, without making a Date of each). No row is kept: a caller that turns
 * each into bytes at once leaves V8 nothing to promote out of its young generation. Collected into a
 * batch, a few thousand rows outlived two young collections, were promoted, and the old generation
 * grew 100 to 250 MB before a mark-compact emptied it (bench/README.md's "The CSV exports" of 2026-11-27, in git log).
 * Through Prisma (a transaction's client, PGlite) the rows are read whole first, then handed over as
 * the values of its row objects, with Dates.
 *
 * On the pool, each statement runs without parallel workers (in a transaction of its own, as
 * queryWithSettings runs its statement). An export's batch is a few thousand rows, each joined by key;
 * costed on the whole range after the batch's start, it got two workers under a Gather Merge, and
 * read 3 to 5 times slower than alone.
 */
export const plannedEachRow =
  <T extends unknown[]>(db: Queryable, onRow: (row: T) => void) =>
  async (strings: TemplateStringsArray, ...values: Prisma.Sql["values"]): Promise<void> => {
    const statement = Prisma.sql(strings, ...values);
    const pool = directPool(db);
    if (!pool) {
      for (const row of await db.$queryRaw<Record<string, unknown>[]>(statement)) onRow(Object.values(row) as T);
      return;
    }
    const config = { ...pgQuery(statement), types: textTimestampTypes, rowMode: "array" };
    await inTransactionOf(pool, "SET LOCAL max_parallel_workers_per_gather = 0", (client) => eachRow(client, config, onRow));
  };

/**
 * Runs `config` on `client`, handing each row to `onRow` as it is parsed; pg keeps none of them (a
 * query with a row listener and no callback). `onRow` runs inside pg's reading of the socket: if it
 * throws, the rest of the rows are read unheard, so that the connection stays in step, and the
 * statement fails with that error.
 */
function eachRow<T extends unknown[]>(client: pg.PoolClient, config: pg.QueryConfig, onRow: (row: T) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    let failed: { error: unknown } | undefined;
    const query = new pg.Query<T>(config);
    query.on("row", (row) => {
      if (failed) return;
      try {
        onRow(row);
      } catch (error) {
        failed = { error };
      }
    });
    query.on("end", () => (failed ? reject(failed.error) : resolve()));
    query.on("error", reject);
    client.query(query);
  });
}

function query<T>(db: Queryable, statement: Prisma.Sql): Promise<T[]> {
  const pool = directPool(db);
  if (!pool) return db.$queryRaw<T[]>(statement);
  return pool.query<T & pg.QueryResultRow>(pgQuery(statement, preparedStatementName({ sql: statement.text }))).then((result) => result.rows);
}

/**
 * A statement planned for its own values (never prepared), with `settings` (`SET LOCAL ...;`) in force
 * for it alone, in a transaction of its own. Outside a transaction on PostgreSQL it goes to the pool
 * directly too: BEGIN and the settings in one round trip, the statement, COMMIT. Through Prisma that
 * is four round trips, each at about three times the Node CPU.
 */
export async function queryWithSettings<T>(db: Db, settings: string, statement: Prisma.Sql): Promise<T[]> {
  const pool = directPool(db);
  if (!pool) {
    const [, rows] = await db.$transaction([db.$executeRawUnsafe(settings), db.$queryRaw<T[]>(statement)]);
    return rows;
  }
  return inTransactionOf(pool, settings, async (client) => (await client.query(pgQuery(statement))).rows as T[]);
}

/** `run` on a connection of `pool`, in a transaction of its own that begins with `settings`. */
async function inTransactionOf<R>(pool: pg.Pool, settings: string, run: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost while checked out is also reported as the client's "error" event, which
  // unheard would end the process; the failing query reports it to the caller.
  const lost = (error: Error) => (broken = error);
  client.on("error", lost);
  try {
    await client.query(`BEGIN; ${settings}`);
    const result = await run(client);
    await client.query("COMMIT");
    return result;
  } catch (error) {
    await client.query("ROLLBACK").catch((rollbackFailed: Error) => (broken = rollbackFailed));
    throw error;
  } finally {
    // A connection that is lost, or cannot even roll back, is closed rather than handed to the next caller.
    client.off("error", lost);
    client.release(broken);
  }
}

const pools = new WeakMap<object, pg.Pool>();

/** `db`'s own pool, while it is open; none for a transaction's client or PGlite's. */
const directPool = (db: object) => {
  const pool = pools.get(db);
  return pool && !pool.ending ? pool : undefined;
};

/** A statement as pg sends it, named or not (""), with values and results converted as Prisma's adapter converts them. */
const pgQuery = (statement: Prisma.Sql, name = ""): pg.QueryConfig => ({
  name: name || undefined,
  text: statement.text,
  values: statement.values.map(toParameter),
  types,
});

/** `db` (a client on PostgreSQL, never a transaction's) runs its prepared statements on `pool`, its adapter's own. */
/** The pool a client on PostgreSQL runs on (undefined for PGlite): its connection counts, for /metrics. */
export const poolOf = (db: object): pg.Pool | undefined => pools.get(db);

export function runPreparedOn(db: object, pool: pg.Pool): void {
  pools.set(db, pool);
}

/** As Prisma's adapter sends a date, in a list too: UTC, without offset, so a `timestamp` column stores it as is. */
function toParameter(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toParameter);
  if (!(value instanceof Date)) return value;
  const iso = value.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 23)}`;
}

const utcTimestamp = (text: string) => new Date(`${text.replace(" ", "T")}Z`);
const TIMESTAMP_ARRAY = 1115;

/** As Prisma returns them: `timestamp` (stored in UTC) as a Date, alone or in a list, `bigint` as a BigInt. */
const types = {
  getTypeParser: ((oid: number, format?: "text" | "binary") => {
    if (oid === pg.types.builtins.TIMESTAMP) return utcTimestamp;
    // One dimension, as `{"2026-01-02 03:04:05.678",NULL}`: a timestamp holds no comma or quote.
    if (oid === TIMESTAMP_ARRAY) return (text: string) => (text === "{}" ? [] : text.slice(1, -1).split(",").map((t) => (t === "NULL" ? null : utcTimestamp(t.replaceAll('"', "")))));
    if (oid === pg.types.builtins.INT8) return (text: string) => BigInt(text);
    return pg.types.getTypeParser(oid, format);
  }) as typeof pg.types.getTypeParser,
};

/** `2026-01-02 03:04:05.6` (a timestamp(3) as PostgreSQL writes it in UTC) as `2026-01-02T03:04:05.600Z`. */
const isoTimestamp = (text: string) => `${text.slice(0, 10)}T${text.slice(11, 19)}${text.length > 19 ? text.slice(19, 23).padEnd(4, "0") : ".000"}Z`;

/** As `types`, with timestamps as ISO 8601 text (isoTimestamp) instead of Dates. */
const textTimestampTypes = {
  getTypeParser: ((oid: number, format?: "text" | "binary") =>
    oid === pg.types.builtins.TIMESTAMP ? isoTimestamp : types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

/**
 * More distinct marked texts than this are sent unnamed; the marked statements are a few dozen (one
 * per batch size for the delivery results), so the cap only guards against a marked statement whose
 * text varies without bound, which would otherwise grow every connection's statement cache.
 */
const MAX_NAMED = 500;
const names = new Map<string, string>();

/** The statement name of a marked text (one per text); "" sends a statement unnamed. Prisma's adapter names through it too. */
export function preparedStatementName({ sql }: { sql: string }): string {
  if (!sql.startsWith(MARK)) return "";
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `referloop_${names.size}`;
    names.set(sql, name);
  }
  return name ?? "";
}
