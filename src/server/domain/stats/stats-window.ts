import { addDays, daysBetween, dayStart, resolveRange, type StatsRange } from "@/lib/schemas/stats";

/** A resolved range of UTC days, and the instants that bound it: `start` included, `end` (the day after `to`) excluded. */
export type StatsWindow = StatsRange & { start: Date; end: Date; days: string[] };

export function statsWindow(query: Partial<StatsRange>, today?: string): StatsWindow {
  const { from, to } = resolveRange(query, today);
  const days = Array.from({ length: daysBetween(from, to) }, (_, i) => addDays(from, i));
  return { from, to, start: dayStart(from), end: dayStart(addDays(to, 1)), days };
}

/** The window of the same length that ends the day before `w` starts: what the overview compares with. */
export function previousWindow(w: StatsWindow): StatsWindow {
  return statsWindow({ from: addDays(w.from, -w.days.length), to: addDays(w.from, -1) });
}
