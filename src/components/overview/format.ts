/** Figures as the overview shows them. */
export const count = (n: number) => n.toLocaleString("en-GB");

/** `part` of `whole` as a percentage with one decimal; a dash when there is no whole. */
export const rate = (part: number, whole: number) => (whole > 0 ? `${((part / whole) * 100).toFixed(1)}%` : "—");

/** A UTC day as "3 Oct". */
export const shortDay = (day: string) => new Date(`${day}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "short", timeZone: "UTC" });

/** How `now` compares with `before`, in words: "+25.0%", "−40.0%", "no change", "new" (nothing before). */
export const change = (now: number, before: number) => {
  if (now === before) return "no change";
  if (before === 0) return "new";
  const pct = ((now - before) / before) * 100;
  return `${pct > 0 ? "+" : "−"}${Math.abs(pct).toFixed(1)}%`;
};
