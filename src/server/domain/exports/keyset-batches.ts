/** Rows read per statement: big enough that a statement's round trip is small beside its rows. */
export const EXPORT_BATCH_ROWS = 5_000;

/**
 * A large read as a series of short statements, each taking up after the last row of the one before
 * (keyset paging on an indexed order that ends in the id): memory holds one batch, no statement or
 * transaction stays open while a slow client downloads, and each batch is an index range scan however
 * far the export has come. Rows written during the export appear in it if they sort after the
 * position reached.
 */
export async function* keysetBatches<Row, Key>(
  read: (after: Key | null, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  limit = EXPORT_BATCH_ROWS,
): AsyncGenerator<Row[]> {
  let after: Key | null = null;
  for (;;) {
    const rows = await read(after, limit);
    if (rows.length) yield rows;
    if (rows.length < limit) return;
    after = keyOf(rows.at(-1)!);
  }
}

/** Each batch turned into CSV rows. */
export async function* mapBatches<Row, Out>(batches: AsyncIterable<Row[]>, map: (row: Row) => Out): AsyncGenerator<Out[]> {
  for await (const rows of batches) yield rows.map(map);
}
