import { stringify } from "csv-stringify/sync";

export type CsvValue = string | number | boolean | Date | null | undefined;

/**
 * A text a spreadsheet would run as a formula (leading `=`, `+`, `-`, `@`, tab or CR) gets a leading
 * apostrophe: app users' attributes and client ids are typed by strangers and must not execute.
 */
export const neutralizeFormula = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

const OPTIONS = {
  record_delimiter: "\r\n",
  cast: {
    string: neutralizeFormula,
    date: (d: Date) => d.toISOString(),
    boolean: (b: boolean) => (b ? "true" : "false"),
  },
} as const;

/**
 * A CSV file (UTF-8; RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes
 * doubled, by csv-stringify) made of batches of rows as they come: the header first, then one chunk
 * per batch, so a download holds one batch in memory whatever its length.
 */
export async function* csvChunks(header: readonly string[], batches: AsyncIterable<CsvValue[][]>): AsyncGenerator<Uint8Array> {
  yield Buffer.from(stringify([header.map(neutralizeFormula)], OPTIONS));
  for await (const rows of batches) if (rows.length) yield Buffer.from(stringify(rows, OPTIONS));
}
