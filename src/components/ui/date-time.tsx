const date = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium" });
const time = new Intl.DateTimeFormat("en-GB", { timeStyle: "short" });
const timeWithSeconds = new Intl.DateTimeFormat("en-GB", { hour: "2-digit", minute: "2-digit", second: "2-digit" });
const full = new Intl.DateTimeFormat("en-GB", { dateStyle: "full", timeStyle: "long" });

/**
 * A timestamp for table cells: the date, and the time below it in grey, so date columns stay narrow.
 * `seconds` for logs, where attempts a few seconds apart must be told apart; `inline` on one line, in a sentence.
 */
export function DateTime({ iso, empty = "—", seconds = false, inline = false }: { iso: string | null | undefined; empty?: string; seconds?: boolean; inline?: boolean }) {
  if (!iso) return <span className="text-zinc-500">{empty}</span>;
  const value = new Date(iso);
  if (inline) {
    return (
      <time dateTime={iso} title={full.format(value)} className="whitespace-nowrap tabular-nums">
        {date.format(value)}, {(seconds ? timeWithSeconds : time).format(value)}
      </time>
    );
  }
  return (
    <time dateTime={iso} title={full.format(value)} className="block whitespace-nowrap leading-tight">
      <span className="block text-zinc-700">{date.format(value)}</span>
      <span className="block text-xs text-zinc-500 tabular-nums">{(seconds ? timeWithSeconds : time).format(value)}</span>
    </time>
  );
}
