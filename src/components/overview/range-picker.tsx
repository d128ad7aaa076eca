"use client";

import { useId } from "react";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { RANGE_OPTIONS, type useRange } from "./use-range";

/** 7, 30 or 90 days up to today, or two dates (UTC, both included). */
export function RangePicker({ range }: { range: ReturnType<typeof useRange> }) {
  const problemId = useId();
  const invalid = range.problem ? { "aria-invalid": true, "aria-describedby": problemId } : {};
  return (
    <div className="flex flex-wrap items-end gap-3">
      <SegmentedControl label="Range" options={RANGE_OPTIONS} value={range.range} onChange={range.choose} />
      {range.range === "custom" && (
        <div className="flex flex-wrap items-end gap-2 text-sm">
          <label className="flex flex-col text-zinc-700">
            From
            <input
              type="date"
              value={range.from}
              onChange={(e) => e.target.value && range.setCustom({ from: e.target.value })}
              {...invalid}
              className="rounded-md border border-zinc-300 px-2 py-1"
            />
          </label>
          <label className="flex flex-col text-zinc-700">
            To
            <input
              type="date"
              value={range.to}
              onChange={(e) => e.target.value && range.setCustom({ to: e.target.value })}
              {...invalid}
              className="rounded-md border border-zinc-300 px-2 py-1"
            />
          </label>
          {range.problem ? (
            <span id={problemId} className="pb-1 text-sm text-red-700">
              {range.problem}
            </span>
          ) : (
            <span className="pb-1 text-xs text-zinc-500">UTC days, both included</span>
          )}
        </div>
      )}
    </div>
  );
}
