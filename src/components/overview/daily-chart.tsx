"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ProjectOverview } from "@/lib/schemas/overview";
import { ChartTooltip, legendText } from "./chart-tooltip";
import { count, shortDay } from "./format";

export const SERIES_COLORS = { tracked: "#6366f1", completed: "#10b981", refused: "#f59e0b" } as const;

/** Tracked and completed referrals per UTC day, with the same figures as a table for screen readers. */
export function DailyChart({ daily }: Pick<ProjectOverview, "daily">) {
  return (
    <figure>
      <div className="h-64 text-zinc-500" aria-hidden="true" data-testid="daily-chart">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart accessibilityLayer={false} data={daily} margin={{ top: 8, right: 8, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.2} />
            <XAxis dataKey="date" tickFormatter={shortDay} stroke="currentColor" fontSize={12} minTickGap={24} />
            <YAxis allowDecimals={false} stroke="currentColor" fontSize={12} />
            <Tooltip content={<ChartTooltip labelFormat={shortDay} />} />
            <Legend wrapperStyle={{ fontSize: 12 }} formatter={legendText} />
            <Line type="monotone" dataKey="tracked" name="Tracked" stroke={SERIES_COLORS.tracked} strokeWidth={2} dot={false} isAnimationActive={false} />
            <Line type="monotone" dataKey="completed" name="Completed" stroke={SERIES_COLORS.completed} strokeWidth={2} dot={false} isAnimationActive={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="sr-only">Referrals tracked and completed per day (UTC)</figcaption>
      <table className="sr-only">
        <caption>Referrals per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Tracked</th>
            <th scope="col">Completed</th>
          </tr>
        </thead>
        <tbody>
          {daily.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{count(d.tracked)}</td>
              <td>{count(d.completed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
