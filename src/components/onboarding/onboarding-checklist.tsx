"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { Button } from "@/components/ui/button";
import { useDismissed } from "@/components/ui/use-dismissed";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { projectPath } from "@/components/projects/paths";

type Onboarding = RouterOutputs["onboarding"]["get"];
type Step = keyof Onboarding["steps"];

type StepText = { title: string; how: string; action: string; href: string };

/** What each step asks and where it is done; Mobile projects get the mobile client, not the widget. */
function stepText(step: Step, onboarding: Onboarding): StepText {
  const project = onboarding.project;
  const mobile = project?.appType === "Mobile";
  const at = (section: Parameters<typeof projectPath>[1]) => (project ? projectPath(project.id, section) : "/dashboard#create-project");
  switch (step) {
    case "project":
      return { title: "Create a project", how: "One per app: it has its own keys, campaign and webhooks.", action: "Create a project", href: "/dashboard#create-project" };
    case "redirectLink":
      return {
        title: "Set the referral redirect link",
        how: mobile ? "Where referral links send people who open them on a computer (app-store links go in the project's app details)." : "The page of your site that referral links lead to.",
        action: "Open the project's settings",
        href: at("settings"),
      };
    case "client":
      return mobile
        ? { title: "Install the mobile client", how: "Add @referloop/react-native to your app; this ticks when it first calls Referloop with the project's key (init-app-user on start).", action: "See the mobile set-up", href: at("campaign") }
        : { title: "Install the widget", how: "Add @referloop/js to your site (or, without a bundler, the hosted script tag); this ticks when the widget first calls Referloop with the project's key.", action: "See how to add it", href: at("campaign") };
    case "referral":
      return { title: "Track the first referral", how: "Someone arrives through a referral link, or your backend calls referrals/track.", action: "Open referrals", href: at("referrals") };
    case "webhookDelivered":
      return { title: "Deliver the first webhook", how: "Add a webhook and send a test event, or wait for the first reward: it ticks when your receiver answers 2xx.", action: "Open webhooks", href: at("webhooks") };
    case "reward":
      return { title: "Grant the first reward", how: "Your backend reports the reward event (track-reward-event) for a tracked referral.", action: "Open referrals", href: at("referrals") };
  }
}

function Tick({ done }: { done: boolean }) {
  return done ? (
    <span aria-hidden className="mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-full bg-emerald-600 text-xs text-on-accent">
      ✓
    </span>
  ) : (
    <span aria-hidden className="mt-0.5 inline-block size-5 shrink-0 rounded-full border-2 border-zinc-300" />
  );
}

/**
 * The way to a live referral programme, ticked from real data (the server reads each step from the
 * rows it stands for): a project's own on its overview, else the organisation's project furthest
 * along. Open until every step is done; then it folds into one line. Anyone may dismiss it.
 */
export function OnboardingChecklist({ projectId }: { projectId?: string } = {}) {
  const trpc = useTRPC();
  // Dismissed in this browser, per project (the projects page's for the organisation).
  const [dismissed, dismiss] = useDismissed(`onboarding:${projectId ?? "organization"}`);
  const onboarding = useQuery(
    trpc.onboarding.get.queryOptions(projectId ? { projectId } : undefined, { refetchInterval: 10_000, refetchOnMount: "always", enabled: !dismissed }),
  );
  if (dismissed || !onboarding.data) return null;
  const data = onboarding.data;
  const steps = Object.keys(data.steps) as Step[];
  const next = steps.find((s) => !data.steps[s]);
  const complete = !next;
  return (
    <section aria-labelledby="onboarding-title" className="relative mb-8 rounded-lg border border-zinc-200 bg-white shadow-sm">
      <Button variant="ghost" size="sm" className="absolute top-3 right-3" onClick={dismiss} aria-label="Dismiss the set-up checklist">
        Dismiss
      </Button>
      <details open={!complete} className="group">
        <summary className="flex cursor-pointer list-none flex-wrap items-center justify-between gap-4 py-4 pr-28 pl-5">
          <div>
            <h2 id="onboarding-title" className="text-base font-semibold text-zinc-900">
              {complete ? "Your referral programme is live" : "Get your referral programme live"}
            </h2>
            <p className="mt-0.5 text-sm text-zinc-500">
              {data.completed} of {data.total} steps done{data.project && !projectId ? ` · ${data.project.name} (${data.project.appType})` : ""}
            </p>
          </div>
          <div
            role="progressbar"
            aria-label="Set-up progress"
            aria-valuemin={0}
            aria-valuemax={data.total}
            aria-valuenow={data.completed}
            className="h-2 w-28 shrink-0 overflow-hidden rounded-full bg-zinc-100"
          >
            <div className="h-full bg-emerald-600" style={{ width: `${(100 * data.completed) / data.total}%` }} />
          </div>
        </summary>
        <ol aria-label="Set-up steps" className="divide-y divide-zinc-100 border-t border-zinc-100">
          {steps.map((step) => {
            const text = stepText(step, data);
            const done = data.steps[step];
            return (
              <li key={step} className="flex items-start gap-3 px-5 py-3" data-step={step}>
                <Tick done={done} />
                <div className="min-w-0 flex-1">
                  <p className={`text-sm font-medium ${done ? "text-zinc-500 line-through" : "text-zinc-900"}`}>
                    {text.title}
                    <span className="sr-only">{done ? " (done)" : " (to do)"}</span>
                  </p>
                  {!done && <p className="text-sm text-zinc-500">{text.how}</p>}
                </div>
                {step === next && (
                  <Link href={text.href} className="shrink-0 text-sm font-medium text-brand-700 hover:underline">
                    {text.action}
                  </Link>
                )}
              </li>
            );
          })}
        </ol>
      </details>
    </section>
  );
}
