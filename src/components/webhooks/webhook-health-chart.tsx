"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { ChartTooltip, legendText } from "@/components/overview/chart-tooltip";
import { count, shortDay } from "@/components/overview/format";
import { useTRPC } from "@/lib/trpc";

const DAYS = 14;
const COLORS = { succeeded: "#10b981", failed: "#ef4444" } as const;

/** The webhook's attempts per day over two weeks, succeeded above failed, with the figures as a table for screen readers. */
export function WebhookHealthChart({ projectId, webhookId }: { projectId: string; webhookId: string }) {
  const trpc = useTRPC();
  const history = useQuery(trpc.webhooks.healthHistory.queryOptions({ projectId, webhookId, days: DAYS }));
  if (!history.data) return null;
  const days = history.data.map((d) => ({ ...d, failed: d.attempts - d.succeeded }));
  return (
    <figure className="mt-4">
      <figcaption className="mb-1 text-xs font-medium text-zinc-600">Attempts per day, the last {DAYS} days (UTC)</figcaption>
      <div className="h-40 text-zinc-500" aria-hidden="true" data-testid="webhook-health-chart">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart accessibilityLayer={false} data={days} margin={{ top: 4, right: 8, bottom: 0, left: -20 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="currentColor" strokeOpacity={0.2} vertical={false} />
            <XAxis dataKey="date" tickFormatter={shortDay} stroke="currentColor" fontSize={11} minTickGap={16} />
            <YAxis allowDecimals={false} stroke="currentColor" fontSize={11} />
            <Tooltip content={<ChartTooltip labelFormat={shortDay} />} />
            <Legend wrapperStyle={{ fontSize: 11 }} formatter={legendText} />
            <Bar dataKey="succeeded" name="Succeeded" stackId="a" fill={COLORS.succeeded} isAnimationActive={false} />
            <Bar dataKey="failed" name="Failed" stackId="a" fill={COLORS.failed} isAnimationActive={false} />
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="sr-only">
        <caption>Webhook attempts per day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col">Succeeded</th>
            <th scope="col">Failed</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date}>
              <th scope="row">{d.date}</th>
              <td>{count(d.succeeded)}</td>
              <td>{count(d.failed)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
