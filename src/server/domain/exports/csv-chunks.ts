export type CsvValue = string | number | bigint | boolean | Date | null | undefined;

const QUOTED = /[",\r\n]/;
const QUOTES = /"/g;

/**
 * One field as RFC 4180 writes it: quoted (quotes doubled) when it holds a comma, a quote or a line
 * break; null and undefined empty; times ISO 8601 UTC. A text a spreadsheet would run as a formula
 * (leading `=`, `+`, `-`, `@`, tab or CR) gets a leading apostrophe: app users' attributes, client ids
 * and labels are typed by strangers and must not execute. A text that needs neither is returned as it
 * is: the common field costs two checks and no new string.
 */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "string") {
    let text = value;
    const first = text.charCodeAt(0);
    // = + - @ tab CR
    if (first === 61 || first === 43 || first === 45 || first === 64 || first === 9 || first === 13) text = `'${text}`;
    return QUOTED.test(text) ? `"${text.replace(QUOTES, '""')}"` : text;
  }
  if (typeof value === "boolean") return value ? "true" : "false";
  if (value instanceof Date) return value.toISOString();
  return String(value);
}

/** One record, CRLF-terminated. */
export function csvLine(values: readonly CsvValue[]): string {
  let line = values.length ? csvField(values[0]) : "";
  for (let i = 1; i < values.length; i++) line += `,${csvField(values[i])}`;
  return `${line}\r\n`;
}

/**
 * A CSV file (UTF-8; RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes
 * doubled) made of batches of rows as they come: the header first, then one chunk per batch, so a
 * download holds a batch or two in memory whatever its length. The chunks are pulled (an async
 * generator): a slow client leaves the next batch unread.
 */
export async function* csvChunks(header: readonly string[], batches: AsyncIterable<readonly CsvValue[][]>): AsyncGenerator<Uint8Array> {
  yield Buffer.from(csvLine(header));
  for await (const rows of batches) {
    if (!rows.length) continue;
    let text = "";
    for (const row of rows) text += csvLine(row);
    yield Buffer.from(text);
  }
}
