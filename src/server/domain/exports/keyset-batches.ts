/**
 * Rows read per statement: big enough that a statement's round trip and planning are small beside
 * its rows, small enough that the two batches held at once
 * (see keysetBatches) stay a few MB.
 */
export const EXPORT_BATCH_ROWS = 5_000;

/**
 * A large read as a series of short statements, each taking up after the last row of the one before
 * (keyset paging on an indexed order that ends in the id): memory holds the batch being written and
 * the next one, no statement or transaction stays open while a slow client downloads, and each batch
 * is an index range scan however far the export has come. The next batch is read while the caller
 * writes this one, so PostgreSQL and Node work side by side. Rows written during the export appear in
 * it if they sort after the position reached.
 */
export async function* keysetBatches<Row, Key>(
  read: (after: Key | null, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  limit = EXPORT_BATCH_ROWS,
): AsyncGenerator<Row[]> {
  let next: Promise<Row[]> | null = ahead(read(null, limit));
  while (next) {
    const rows: Row[] = await next;
    next = rows.length < limit ? null : ahead(read(keyOf(rows.at(-1)!), limit));
    if (rows.length) yield rows;
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
