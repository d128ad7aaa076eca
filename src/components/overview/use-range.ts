"use client";

import { addDays, dayOf, RANGE_PRESETS } from "@/lib/schemas/stats";
import { oneOf, useUrlState } from "@/lib/use-url-state";

const URL_DEFAULTS = { range: "30", from: "", to: "" } as const;
const RANGES = [...RANGE_PRESETS.map(String), "custom"] as const;
export type RangeChoice = (typeof RANGES)[number];

/**
 * The overview's range, kept in the URL (`?range=7|30|90`, or `?range=custom&from=&to=`), as the UTC
 * days it names; the server checks a custom one (to before from, more than 366 days).
 */
export function useRange() {
  const [url, setUrl] = useUrlState(URL_DEFAULTS);
  const range = oneOf(url.range, RANGES, "30");
  const today = dayOf(new Date());
  const days = Number(range);
  const from = range === "custom" ? url.from || addDays(today, -29) : addDays(today, -(days - 1));
  const to = range === "custom" ? url.to || today : today;
  return {
    range,
    from,
    to,
    choose: (next: RangeChoice) => setUrl(next === "custom" ? { range: next, from, to } : { range: next === "30" ? null : next, from: null, to: null }),
    setCustom: (patch: { from?: string; to?: string }) => setUrl({ range: "custom", from: patch.from ?? from, to: patch.to ?? to }),
  };
}

export const RANGE_OPTIONS = RANGES.map((value) => ({ value, label: value === "custom" ? "Custom" : `${value} days` }));
