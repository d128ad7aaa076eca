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
 * CSV records written as UTF-8 into one growing byte buffer, outside V8's heap: a batch of rows
 * becomes one chunk of the file, and no row, line or batch string lives longer than its own encoding
 * (see plannedEachRow for why that matters).
 */
export class CsvBytes {
  private buffer = Buffer.allocUnsafe(256 * 1024);
  private length = 0;
  /** The bytes of the widest record so far: what sizes the next batch (keysetCsv). */
  widest = 0;

  /** Appends one record (csvLine). */
  add(values: readonly CsvValue[]): void {
    const line = csvLine(values);
    // UTF-8 takes at most three bytes per UTF-16 code unit.
    const needed = this.length + line.length * 3;
    if (needed > this.buffer.length) {
      const larger = Buffer.allocUnsafe(Math.max(needed, this.buffer.length * 2));
      this.buffer.copy(larger, 0, 0, this.length);
      this.buffer = larger;
    }
    const written = this.buffer.write(line, this.length);
    this.length += written;
    if (written > this.widest) this.widest = written;
  }

  /** The records so far, as one chunk of the file. */
  bytes(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

/**
 * A CSV file (UTF-8; RFC 4180: CRLF line ends, fields with a comma, quote or line break quoted, quotes
 * doubled): the header, then the body's chunks as they come. The chunks are pulled (async
 * generators): a slow client leaves the next batch unread.
 */
export async function* csvFile(header: readonly string[], body: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  yield Buffer.from(csvLine(header));
  yield* body;
}
