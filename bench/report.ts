/** Console tables, the list of targets, and the JSON written to .data/bench/. */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";

export type Cell = string | number;

export const ms = (value: number) => (Number.isFinite(value) ? `${value.toFixed(1)} ms` : "-");
export const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
export const rate = (value: number, unit = "/s") => `${value.toFixed(0)}${unit}`;

export function printTable(title: string, header: readonly string[], rows: readonly (readonly Cell[])[]) {
  const text = rows.map((row) => row.map(String));
  const widths = header.map((h, i) => Math.max(h.length, ...text.map((r) => r[i]?.length ?? 0)));
  // Numbers (and "12.3 ms"-like values) right-aligned, words left-aligned.
  const align = (cell: string, i: number) => (/^[-+]?[\d.,]+(\s?\S+)?$/.test(cell) ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!));
  const line = (cells: readonly string[]) => "  " + cells.map(align).join("  ").trimEnd();
  console.log(`\n${title}`);
  console.log(line(header.map((h, i) => h.padEnd(widths[i]!))));
  console.log("  " + widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of text) console.log(line(row));
}

export type Target = { name: string; actual: number; limit: number; comparison: "<=" | ">="; unit: string };

export const targetMet = (t: Target) => (t.comparison === "<=" ? t.actual <= t.limit : t.actual >= t.limit);

/** Every target checked by the run; a missed target makes the process exit non-zero. */
export class Targets {
  readonly all: Target[] = [];

  check(name: string, actual: number, comparison: Target["comparison"], limit: number, unit: string) {
    const target = { name, actual, limit, comparison, unit };
    this.all.push(target);
    return targetMet(target);
  }

  get missed() {
    return this.all.filter((t) => !targetMet(t));
  }

  print() {
    const fmt = (value: number, unit: string) => `${value.toFixed(unit === "%" || unit === "ms" ? 1 : 0)} ${unit}`;
    printTable(
      "Targets",
      ["target", "actual", "limit", "result"],
      this.all.map((t) => [t.name, fmt(t.actual, t.unit), `${t.comparison} ${fmt(t.limit, t.unit)}`, targetMet(t) ? "ok" : "MISSED"]),
    );
  }
}

/** Machine-readable results, in the gitignored data folder (nothing generated is committed). */
export async function writeResults(results: unknown): Promise<string> {
  const file = path.resolve(process.env.REFERLOOP_DATA_DIR ?? ".data", "bench", "latest.json");
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(results, null, 2) + "\n");
  return file;
}
