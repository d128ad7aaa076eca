import type { ProjectOverview } from "@/lib/schemas/overview";
import { change, count, rate } from "./format";

/**
 * Link clicks -> referrals tracked -> referrals rewarded -> referrals delivered: each step counts
 * referrals (a referral whose reward went to several webhooks is delivered once), clicks only clicks
 * on referral links. Each bar is scaled to the largest step, labelled with the rate from the step
 * before and compared with the period before. A list, so it reads in order without the bars.
 */
export function Funnel({ totals, previous, appType }: Pick<ProjectOverview, "totals" | "previous" | "appType">) {
  const steps = [
    {
      label: "Link clicks",
      value: totals.clicks,
      before: previous.totals.clicks,
      note: appType === "Web" ? "a Web project's referrals arrive through the widget: no link click is counted" : "landing-page visits",
    },
    { label: "Referrals tracked", value: totals.tracked, before: previous.totals.tracked },
    { label: "Referrals rewarded", value: totals.completed, before: previous.totals.completed },
    { label: "Referrals delivered", value: totals.referralsDelivered, before: previous.totals.referralsDelivered, note: "at least one webhook succeeded" },
  ];
  const top = Math.max(1, ...steps.map((s) => s.value));
  return (
    <ol aria-label="Funnel" className="space-y-3">
      {steps.map((step, i) => {
        const from = i > 0 ? steps[i - 1]!.value : 0;
        return (
          <li key={step.label} data-testid={`funnel-${i}`}>
            <div className="flex flex-wrap items-baseline justify-between gap-x-2 text-sm">
              <span className="font-medium text-zinc-800">
                {step.label}
                {step.note && <span className="ml-1 text-xs font-normal text-zinc-500">({step.note})</span>}
              </span>
              <span className="tabular-nums text-zinc-900">
                <strong>{count(step.value)}</strong>
                {i > 0 && from > 0 && <span className="ml-2 text-xs text-zinc-500">{rate(step.value, from)} of the step before</span>}
              </span>
            </div>
            <div className="mt-1 h-2.5 rounded bg-zinc-100" aria-hidden="true">
              <div className="h-2.5 rounded bg-brand-600" style={{ width: `${(step.value / top) * 100}%` }} />
            </div>
            <p className="mt-0.5 text-xs text-zinc-500">
              Period before: {count(step.before)} ({change(step.value, step.before)})
            </p>
          </li>
        );
      })}
    </ol>
  );
}
