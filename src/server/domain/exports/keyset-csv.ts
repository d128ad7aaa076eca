import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { plannedEachRow } from "@/server/db/prepared-statements";
import { CsvBytes, type CsvValue } from "./csv-chunks";

/**
 * Rows read per statement at most: big enough that a statement's round trip and planning are small
 * beside its rows. Fewer when rows are wide (EXPORT_CHUNK_BYTES).
 */
export const EXPORT_BATCH_ROWS = 5_000;

/**
 * About the CSV bytes of one batch, so one chunk of the file: a batch's rows are counted from the
 * widest row written so far, so that memory stays a few MB whatever the rows' width (1,000 users with
 * 50 wide attributes were one 60 MB batch, its first byte sent after all of it was read).
 */
export const EXPORT_CHUNK_BYTES = 1024 * 1024;

/** The first batch's rows: small, so the first bytes go out at once and measure the rows' width. */
const FIRST_BATCH_ROWS = 16;

/** Batches read at once, each on a connection of its own (see keysetCsv). */
const BATCHES_IN_FLIGHT = 2;

type Row = CsvValue[];
type Key = [at: CsvValue, id: CsvValue];

export type KeysetQuery = {
  /** The file's columns, in its order. */
  columns: Prisma.Sql;
  /** The tables and the filter: `"Table" x JOIN ... WHERE ...`. Joins the key's end does not need are best LEFT JOINs on unique keys, which PostgreSQL leaves out of it. */
  from: Prisma.Sql;
  /** The order, unique: a time column, then the id (an index on them, after the filter's equalities, makes each batch a range scan). */
  at: Prisma.Sql;
  id: Prisma.Sql;
  /** Changes a row in place before it is written (optional). */
  prepare?: (row: Row) => void;
};

/**
 * A large read as CSV, in a series of short statements on an order that ends in the id (keyset paging):
 * each batch's end is found first from the order's columns alone (the key `limit` rows on, usually
 * from the index), then its rows are read between the last batch's end and its own, written as CSV
 * as they arrive, and handed on as one chunk. A batch has as many rows as fit about `chunkBytes` at the
 * widest row written so far (at most `limit`, and at most four times the batch before, so a run of
 * narrow rows does not size a batch of wide ones far past it). Two batches are read at once, so that two PostgreSQL
 * backends join their rows side by side while Node writes, and the chunks go out in order. No
 * statement or transaction stays open while a slow client downloads (the consumer pulls; a slow one
 * leaves the next batches unread), and each batch is a range scan however far the export has come.
 * Rows written during the export appear in it if they sort after the position reached.
 */
export async function* keysetCsv(db: Db, query: KeysetQuery, limit = EXPORT_BATCH_ROWS, chunkBytes = EXPORT_CHUNK_BYTES): AsyncGenerator<Uint8Array> {
  // Each bound also on the time alone: PostgreSQL estimates a row comparison from a default, and took
  // a batch between two of them for 60,000 of 250,000 deliveries (a hash join over every tracking
  // item, 1.4 s); on the time it reads the histogram and joins the batch's few thousand by key.
  const range = (after: Key | null, upTo: Key | null) =>
    Prisma.sql`${after ? Prisma.sql`AND ${query.at} >= ${after[0]}::timestamp AND (${query.at}, ${query.id}) > (${after[0]}::timestamp, ${after[1]})` : Prisma.empty}
      ${upTo ? Prisma.sql`AND ${query.at} <= ${upTo[0]}::timestamp AND (${query.at}, ${query.id}) <= (${upTo[0]}::timestamp, ${upTo[1]})` : Prisma.empty}`;

  /** The key `rows` rows after `after`, or null when fewer remain. */
  const endOf = async (after: Key | null, rows: number): Promise<Key | null> => {
    let end: Key | null = null;
    await plannedEachRow<Key>(db, (row) => (end = row))`
      SELECT ${query.at}, ${query.id} FROM ${query.from} ${range(after, null)}
      ORDER BY ${query.at}, ${query.id} OFFSET ${rows - 1} LIMIT 1`;
    return end;
  };

  let widest = 0;
  let rows = 0;
  /** The next batch's rows: about `chunkBytes` at the widest row read yet (the first: a few). */
  const nextRows = () =>
    rows === 0 ? Math.min(FIRST_BATCH_ROWS, limit) : Math.max(1, Math.min(limit, rows * 4, widest ? Math.floor(chunkBytes / widest) : rows));

  /** The rows after `after` up to `upTo` (to the end when null), as one chunk of CSV. */
  const read = (after: Key | null, upTo: Key | null): Promise<Uint8Array> => {
    const csv = new CsvBytes();
    const prepare = query.prepare;
    const onRow = prepare
      ? (row: Row) => {
          prepare(row);
          csv.add(row);
        }
      : (row: Row) => csv.add(row);
    return ahead(
      plannedEachRow<Row>(db, onRow)`
        SELECT ${query.columns} FROM ${query.from} ${range(after, upTo)} ORDER BY ${query.at}, ${query.id}`.then(() => {
          widest = Math.max(widest, csv.widest);
          return csv.bytes();
        }),
    );
  };

  const reading: Promise<Uint8Array>[] = [];
  let after: Key | null = null;
  let more = true;
  for (;;) {
    while (more && reading.length < BATCHES_IN_FLIGHT) {
      rows = nextRows();
      const upTo = await endOf(after, rows);
      reading.push(read(after, upTo));
      after = upTo;
      more = upTo !== null;
    }
    const next = reading.shift();
    if (!next) return;
    const chunk = await next;
    if (chunk.length) yield chunk;
  }
}

/**
 * A read started ahead of its turn: marked handled, so that failing while the caller is busy with the
 * batch before does not count as an unhandled rejection (which ends the process); awaiting it still
 * throws. If the caller stops early (the client went away), the read is left to finish unheard.
 */
function ahead<T>(read: Promise<T>): Promise<T> {
  read.catch(() => {});
  return read;
}
