"use client";

import { count } from "./format";

type Entry = { name?: string | number; value?: number | string; color?: string };

/** The charts' tooltip: readable in light and dark. */
export function ChartTooltip({ active, label, payload, labelFormat }: { active?: boolean; label?: string | number; payload?: readonly Entry[]; labelFormat?: (label: string) => string }) {
  if (!active || !payload?.length) return null;
  return (
    <div className="rounded-md border border-zinc-200 bg-white px-3 py-2 text-xs shadow-md">
      <p className="mb-1 font-medium">{labelFormat ? labelFormat(String(label)) : label}</p>
      {payload.map((e) => (
        <p key={String(e.name)} className="flex items-center gap-2">
          <span className="inline-block size-2 rounded-full" style={{ background: e.color }} />
          {e.name}: <strong className="tabular-nums">{count(Number(e.value ?? 0))}</strong>
        </p>
      ))}
    </div>
  );
}

/** A legend entry in the text colour: recharts paints it in its series' colour, too pale to read on white (amber, emerald) or black (indigo). The swatch keeps the colour. */
export const legendText = (value: string) => <span className="text-zinc-700">{value}</span>;
