const dateTime = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" });
const dateOnly = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" });

export function formatDateTime(iso: string | null | undefined, empty = "—"): string {
  return iso ? dateTime.format(new Date(iso)) : empty;
}

export function formatDate(iso: string | null | undefined, empty = "—"): string {
  return iso ? dateOnly.format(new Date(iso)) : empty;
}
