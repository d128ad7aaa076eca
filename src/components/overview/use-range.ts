"use client";

import { addDays, dayOf, RANGE_PRESETS, resolveRange, statsRangeQuery } from "@/lib/schemas/stats";
import { oneOf, useUrlState } from "@/lib/use-url-state";

const URL_DEFAULTS = { range: "30", from: "", to: "" } as const;
const RANGES = [...RANGE_PRESETS.map(String), "custom"] as const;
export type RangeChoice = (typeof RANGES)[number];

/**
 * The overview's range, kept in the URL (`?range=7|30|90`, or `?range=custom&from=&to=`), as the UTC
 * days it names. A custom one the server would refuse (to before from, more than 366 days, a
 * hand-edited day) has a `problem` instead of a query: the figures of the last range stay.
 */
export function useRange() {
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const range = oneOf(url.range, RANGES, "30");
  const today = dayOf(new Date());
  const days = Number(range);
  // A missing end defaults as the server's does: a missing `from` 29 days before `to`.
  const { from, to } = range === "custom" ? resolveRange({ from: url.from || undefined, to: url.to || undefined }, today) : { from: addDays(today, -(days - 1)), to: today };
  const issue = range === "custom" ? statsRangeQuery.safeParse({ from, to }).error?.issues[0] : undefined;
  return {
    range,
    from,
    to,
    /** Why the custom range is not asked for, as a sentence. */
    problem: issue && problemText(issue.path[0] === "from" ? "From" : "To", issue.message),
    choose: (next: RangeChoice) => setUrl(next === "custom" ? { range: next, from, to } : { range: next === "30" ? null : next, from: null, to: null }),
    // Only the end that changed: useUrlState keeps the other as the last edit left it. The `from`/`to`
    // above are those of the last render, so writing both let a quick second edit put back the first
    // edit's old value.
    setCustom: (patch: { from: string } | { to: string }) => setUrl({ range: "custom", ...patch }),
  };
}

/** "To must not be before From.", "The range must be at most 366 days.": the schema's messages in the picker's words. */
function problemText(end: "From" | "To", message: string): string {
  const words = message.replaceAll("`from`", "From").replaceAll("`to`", "To");
  return /^must\b/.test(words) ? `${end} ${words}.` : `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
}

export const RANGE_OPTIONS = RANGES.map((value) => ({ value, label: value === "custom" ? "Custom" : `${value} days` }));
