/** The shape of a drill and the helpers its checks share. */
import type { PacedRecord } from "../harness/paced-load";

export type Check = { name: string; passed: boolean; detail: string };

export type DrillOutcome = { checks: Check[]; figures: Record<string, unknown> };

export type Drill = {
  name: string;
  summary: string;
  run(log: (line: string) => void): Promise<DrillOutcome>;
};

export const check = (name: string, passed: boolean, detail: string): Check => ({ name, passed, detail });

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** "200 x41, 503 x3, no answer x2" */
export function statusSummary(records: PacedRecord[]): string {
  const counts = new Map<string, number>();
  for (const r of records) {
    const key = r.status === 0 ? `no answer (${r.error ?? "?"})` : String(r.status);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return [...counts.entries()].map(([k, n]) => `${k} x${n}`).join(", ") || "none";
}

export const header = (r: PacedRecord, name: string) => {
  const value = r.headers[name];
  return Array.isArray(value) ? value[0] : value;
};
