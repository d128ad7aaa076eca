import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { CsvBytes, csvField, csvFile, csvLine, type CsvValue } from "./csv-chunks";

/** Each batch of rows as one chunk, as keysetCsv makes them. */
async function* chunksOf(...batches: CsvValue[][][]) {
  for (const batch of batches) {
    const csv = new CsvBytes();
    for (const row of batch) csv.add(row);
    yield csv.bytes();
  }
}

async function text(chunks: AsyncIterable<Uint8Array>) {
  const parts: Buffer[] = [];
  for await (const chunk of chunks) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts).toString("utf8");
}

describe("CSV fields and lines", () => {
  it("writes each kind of value", () => {
    expect(csvLine(["plain", 42, -7, 12n, true, false, null, undefined, "", new Date("2026-01-02T03:04:05.006Z")])).toBe(
      "plain,42,-7,12,true,false,,,,2026-01-02T03:04:05.006Z\r\n",
    );
    expect(csvLine([])).toBe("\r\n");
  });

  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(csvField("comma, inside")).toBe('"comma, inside"');
    expect(csvField('a "quoted" word')).toBe('"a ""quoted"" word"');
    expect(csvField("line\nbreak\r\nmore")).toBe('"line\nbreak\r\nmore"');
    expect(csvField("Ünïcödé ✓ 日本")).toBe("Ünïcödé ✓ 日本");
  });

  it("neutralises what a spreadsheet would run as a formula, then quotes if it must", () => {
    expect(csvField("=1+1")).toBe("'=1+1");
    expect(csvField("+1")).toBe("'+1");
    expect(csvField("-2+3")).toBe("'-2+3");
    expect(csvField("@SUM(A1)")).toBe("'@SUM(A1)");
    expect(csvField("\tTabbed")).toBe("'\tTabbed");
    expect(csvField("\rCarriage")).toBe("\"'\rCarriage\"");
    expect(csvField('=HYPERLINK("https://evil.example","x")')).toBe(`"'=HYPERLINK(""https://evil.example"",""x"")"`);
    expect(csvField("a=b")).toBe("a=b");
  });
});

describe("CsvBytes and csvFile", () => {
  it("write the header, then each batch as one chunk, read back equal", async () => {
    const rows: CsvValue[][] = [
      ["=cmd|' /C calc'!A0", 'say "hi", then\nleave', 1],
      ["", null, 2],
      ["-", "ok", 3],
    ];
    const chunks: Uint8Array[] = [];
    for await (const chunk of csvFile(["a", "b", "+c"], chunksOf([rows[0]!], [rows[1]!, rows[2]!]))) chunks.push(chunk);
    expect(chunks).toHaveLength(3);
    const file = await text(csvFile(["a", "b", "+c"], chunksOf([rows[0]!], [rows[1]!, rows[2]!])));
    expect(file.endsWith("\r\n")).toBe(true);
    expect(parse(file)).toEqual([
      ["a", "b", "'+c"],
      ["'=cmd|' /C calc'!A0", 'say "hi", then\nleave', "1"],
      ["", "", "2"],
      ["'-", "ok", "3"],
    ]);
  });

  it("grow past their first buffer, multi-byte text and all, keeping every byte in order", () => {
    const csv = new CsvBytes();
    const rows = Array.from({ length: 20_000 }, (_, i) => [`日本-${i}`, "Ünïcödé ✓, \"quoted\"", i]);
    let expected = "";
    for (const row of rows) {
      csv.add(row);
      expected += csvLine(row);
    }
    const bytes = csv.bytes();
    expect(bytes.length).toBeGreaterThan(256 * 1024);
    expect(Buffer.from(bytes).toString("utf8")).toBe(expected);
    expect(parse(Buffer.from(bytes).toString("utf8"))).toHaveLength(rows.length);
  });
});
