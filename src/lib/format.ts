const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" });

export function formatDateTime(iso: string | null | undefined, empty = "—"): string {
  return iso ? dateTime.format(new Date(iso)) : empty;
}

export function formatDate(iso: string | null | undefined, empty = "—"): string {
  return iso ? dateOnly.format(new Date(iso)) : empty;
}

/**
 * A wait in words for people ("25 minutes", "40 seconds", "2 hours"), rounded up so that retrying when
 * it says never comes too early.
 */
export function waitInWords(seconds: number): string {
  const unit = (n: number, one: string) => `${n} ${one}${n === 1 ? "" : "s"}`;
  if (seconds < 60) return unit(Math.max(1, Math.ceil(seconds)), "second");
  if (seconds < 90 * 60) return unit(Math.ceil(seconds / 60), "minute");
  return unit(Math.ceil(seconds / 3600), "hour");
}
