"use client";

import { OVERLAP_HOURS, type OverlapHours } from "@/lib/schemas/rotation";

/** How long a rotated credential keeps working beside the new one: the rotations' one choice. */
export function OverlapSelect({ what, value, onChange }: { what: string; value: OverlapHours; onChange: (hours: OverlapHours) => void }) {
  return (
    <label className="flex flex-wrap items-center gap-2 text-sm text-zinc-800">
      Keep the current {what} working for
      <select value={value} onChange={(event) => onChange(Number(event.target.value) as OverlapHours)} className="rounded-md border border-zinc-300 bg-white px-2 py-1 text-sm">
        {OVERLAP_HOURS.map((hours) => (
          <option key={hours} value={hours}>
            {hours === 0 ? "no time (stop at once)" : hours === 1 ? "1 hour" : `${hours} hours`}
          </option>
        ))}
      </select>
    </label>
  );
}

/** The confirmation's question for a rotation with this overlap. */
export const rotationQuestion = (what: string, hours: OverlapHours) =>
  hours ? `The current ${what} stops working in ${hours} hour${hours === 1 ? "" : "s"}. Rotate?` : `The current ${what} stops working at once. Rotate?`;
