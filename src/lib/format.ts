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

const ISO_INSTANT = /\b\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})\b/g;

/** Text for people with every ISO 8601 instant in it (as older activity descriptions have) written as a date and time. */
export function withReadableDates(text: string): string {
  return text.replace(ISO_INSTANT, (iso) => {
    const at = new Date(iso);
    return Number.isNaN(at.getTime()) ? iso : dateTime.format(at);
  });
}

/** An instant as people read it in UTC, for text written on the server: "29 Dec 2026, 10:41 UTC". */
export function formatUtc(at: Date): string {
  return `${new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(at)} UTC`;
}
