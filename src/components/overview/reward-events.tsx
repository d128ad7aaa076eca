"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ProjectOverview } from "@/lib/schemas/overview";
import { rewardReasonText } from "@/lib/schemas/referrals";
import { ChartTooltip, legendText } from "./chart-tooltip";
import { SERIES_COLORS } from "./daily-chart";
import { count } from "./format";

/** Reward events by name: claimed against refused, and why they were refused. */
export function RewardEvents({ events }: { events: ProjectOverview["rewardEvents"] }) {
  if (!events.length) return <p className="text-sm text-zinc-500">No reward events reported in this range.</p>;
  const data = events.map((e) => ({ name: e.eventName || "(no name)", claimed: e.claimed, refused: e.refused }));
  return (
    <div>
      <div className="text-zinc-500" style={{ height: Math.max(120, 40 * data.length + 40) }} aria-hidden="true" data-testid="reward-events-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ top: 0, right: 8, bottom: 0, left: 8 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.2} horizontal={false} />
            <XAxis type="number" allowDecimals={false} stroke="currentColor" fontSize={12} />
            <YAxis type="category" dataKey="name" width={110} stroke="currentColor" fontSize={12} />
            <Tooltip content={<ChartTooltip />} />
            <Legend wrapperStyle={{ fontSize: 12 }} formatter={legendText} />
            <Bar dataKey="claimed" name="Claimed" stackId="events" fill={SERIES_COLORS.completed} isAnimationActive={false} />
            <Bar dataKey="refused" name="Not claimed" stackId="events" fill={SERIES_COLORS.refused} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="mt-3 w-full text-left text-sm">
        <caption className="sr-only">Reward events by name</caption>
        <thead className="text-xs text-zinc-500">
          <tr>
            <th scope="col" className="py-1 font-medium">Event</th>
            <th scope="col" className="py-1 text-right font-medium">Claimed</th>
            <th scope="col" className="py-1 text-right font-medium">Not claimed</th>
            <th scope="col" className="py-1 pl-4 font-medium">Why not</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-zinc-100">
          {events.map((e) => (
            <tr key={e.eventName}>
              <th scope="row" className="py-1.5 font-medium text-zinc-800">
                {e.eventName || "(no name)"}
              </th>
              <td className="py-1.5 text-right tabular-nums">{count(e.claimed)}</td>
              <td className="py-1.5 text-right tabular-nums">{count(e.refused)}</td>
              <td className="py-1.5 pl-4 text-xs text-zinc-600">
                {e.reasons.length ? e.reasons.map((r) => `${rewardReasonText(r.reason)} (${count(r.count)})`).join("; ") : "—"}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
