import type { ProjectOverview } from "@/lib/schemas/overview";
import { count, rate } from "./format";

/**
 * Link clicks -> referrals tracked -> rewards claimed -> webhooks delivered, each step's bar scaled to
 * the first and labelled with the rate from the step before. A list, so it reads in order without the bars.
 */
export function Funnel({ totals, appType }: Pick<ProjectOverview, "totals" | "appType">) {
  const steps = [
    { label: "Link clicks", value: totals.clicks, note: appType === "Web" ? "link arrivals the widget reported" : "landing-page visits" },
    { label: "Referrals tracked", value: totals.tracked },
    { label: "Rewards claimed", value: totals.completed },
    { label: "Webhooks delivered", value: totals.deliveriesSucceeded },
  ];
  const top = Math.max(1, ...steps.map((s) => s.value));
  return (
    <ol aria-label="Funnel" className="space-y-3">
      {steps.map((step, i) => (
        <li key={step.label} data-testid={`funnel-${i}`}>
          <div className="flex flex-wrap items-baseline justify-between gap-2 text-sm">
            <span className="font-medium text-zinc-800">
              {step.label}
              {step.note && <span className="ml-1 text-xs font-normal text-zinc-500">({step.note})</span>}
            </span>
            <span className="tabular-nums text-zinc-900">
              <strong>{count(step.value)}</strong>
              {i > 0 && <span className="ml-2 text-xs text-zinc-500">{rate(step.value, steps[i - 1]!.value)} of the step before</span>}
            </span>
          </div>
          <div className="mt-1 h-2.5 rounded bg-zinc-100" aria-hidden="true">
            <div className="h-2.5 rounded bg-brand-600" style={{ width: `${(step.value / top) * 100}%` }} />
          </div>
        </li>
      ))}
    </ol>
  );
}
