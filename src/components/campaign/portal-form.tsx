"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { ATTRIBUTE_KEY_MAX_LENGTH } from "@/lib/schemas/app-users";
import {
  MAX_MILESTONES,
  MILESTONE_NAME_MAX_LENGTH,
  milestonesSchema,
  PORTAL_SECTIONS,
  portalSettingsPatchSchema,
  type PortalSection,
  type ReferralSummary,
} from "@/lib/schemas/portal";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { render } from "../../../packages/js/src/ui/index";

type Campaign = RouterOutputs["campaigns"]["get"];
type Row = { referrals: string; name: string };

const SECTION_LABELS: Record<PortalSection, string> = {
  totals: "Totals (arrived, joined, pending, being checked, rewarded)",
  friends: "Friends list",
  rewards: "Rewards earned",
  milestones: "Milestone progress",
};

/** Sample friends for the preview: what the referrer would see, names shown or masked as set. */
function sampleSummary(rows: { referrals: number; name: string }[], sections: Record<PortalSection, boolean>, attribute: string | null, campaign: Campaign): ReferralSummary {
  const done = 2;
  const friends = [
    ["Grace", "rewarded"],
    ["Linus", "rewarded"],
    ["Barbara", "being_checked"],
    ["Margaret", "pending"],
  ] as const;
  const at = "2026-11-02T14:05:09.123Z";
  const items = rows.map((m) => ({ ...m, reached: m.referrals <= done, reachedAt: m.referrals <= done ? at : null }));
  const next = items.find((m) => !m.reached);
  return {
    referralCode: "AbC123",
    referralLink: "https://your-site.example/join?referralCode=AbC123",
    campaign: { title: campaign.referrerExperience.modal.modalTitle, description: campaign.referrerExperience.modal.modalDescription, themeColor: campaign.referrerExperience.theme.themeColor, backgroundColor: campaign.referrerExperience.theme.backgroundColor, sections },
    totals: sections.totals ? { arrived: 5, joined: 4, pending: 1, beingChecked: 1, rewarded: done } : null,
    friends: sections.friends
      ? { items: friends.map(([name, status]) => ({ name: attribute ? name : `${name[0]}•••`, masked: !attribute, status, arrivedAt: at, rewardedAt: status === "rewarded" ? at : null })), page: 1, pageSize: 20, totalCount: 4, hasNextPage: false }
      : null,
    rewards: sections.rewards ? { count: done, recent: [{ eventName: "first_purchase", claimedAt: at }] } : null,
    milestones: sections.milestones ? { successfulReferrals: done, items, next: next ? { referrals: next.referrals, name: next.name, remaining: next.referrals - done } : null } : null,
  };
}

function PortalEditor({ projectId, campaign }: { projectId: string; campaign: Campaign }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editing = usePermission("campaigns.update");
  const [rows, setRows] = useState<Row[]>(campaign.milestones.map((m) => ({ referrals: String(m.referrals), name: m.name })));
  const [sections, setSections] = useState(campaign.portal.sections);
  const [attribute, setAttribute] = useState(campaign.portal.friendNameAttribute ?? "");
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [saved, setSaved] = useState(false);
  const preview = useRef<HTMLDivElement>(null);
  const save = useMutation(
    trpc.campaigns.update.mutationOptions({
      onSuccess: (updated) => {
        setErrors(noErrors);
        setSaved(true);
        queryClient.setQueryData(trpc.campaigns.get.queryKey({ projectId }), updated);
      },
      onError: (error) => setErrors(toFormErrors(error, ["milestones", "portal.friendNameAttribute"])),
    }),
  );

  const milestones = useMemo(() => rows.map((r) => ({ referrals: Number(r.referrals), name: r.name })), [rows]);
  const shown = useMemo(() => milestones.filter((m) => Number.isInteger(m.referrals) && m.referrals > 0 && m.name.trim()).sort((a, b) => a.referrals - b.referrals), [milestones]);
  useEffect(() => {
    if (!preview.current) return;
    render(
      preview.current,
      { referrerExperience: campaign.referrerExperience, newUserExperience: campaign.newUserExperience, summary: sampleSummary(shown, sections, attribute.trim() || null, campaign) },
      "referrals",
    );
  }, [shown, sections, attribute, campaign]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const portal = { sections, friendNameAttribute: attribute.trim() || null };
    const checked = milestonesSchema.safeParse(milestones);
    const checkedPortal = portalSettingsPatchSchema.safeParse(portal);
    if (!checked.success || !checkedPortal.success) {
      const fields: Record<string, string> = {};
      // The list's first problem, named by its row (the shared schema's message).
      const first = checked.error?.issues[0];
      if (first) fields.milestones = first.path.length ? `Milestone ${Number(first.path[0]) + 1}${first.path[1] ? ` ${String(first.path[1])}` : ""}: ${first.message}` : first.message;
      for (const issue of checkedPortal.error?.issues ?? []) fields[["portal", ...issue.path].join(".")] ??= issue.message;
      setErrors({ message: null, fields });
      return;
    }
    save.mutate({ projectId, milestones: checked.data, portal });
  }

  return (
    <Card title="Referrer portal" description="What a referrer sees of their own referrals: on the hosted page of a portal session, in the widget's “Your referrals” view and in the mobile client's getReferralSummary().">
      <div className="grid gap-6 lg:grid-cols-2">
        <form onSubmit={onSubmit} noValidate aria-label="Referrer portal">
          <fieldset disabled={!editing.allowed} className="min-w-0 space-y-5">
            <fieldset>
              <legend className="text-sm font-medium text-zinc-800">Milestones</legend>
              <p className="text-sm text-zinc-500">
                Tiers of successful referrals, up to {MAX_MILESTONES}. Each is reached once per referrer (a <code>milestone.reached</code> webhook event); a revoked reward does not take it back.
              </p>
              <ol className="mt-2 space-y-2">
                {rows.map((row, i) => (
                  <li key={i} className="flex flex-wrap items-end gap-2">
                    <label className="text-sm">
                      <span className="block text-zinc-700">Referrals</span>
                      <input type="number" min={1} step={1} value={row.referrals} onChange={(e) => setRows((r) => r.map((x, j) => (j === i ? { ...x, referrals: e.target.value } : x)))} className={`${inputClasses} w-28`} />
                    </label>
                    <label className="flex-1 text-sm">
                      <span className="block text-zinc-700">Name</span>
                      <input maxLength={MILESTONE_NAME_MAX_LENGTH} value={row.name} onChange={(e) => setRows((r) => r.map((x, j) => (j === i ? { ...x, name: e.target.value } : x)))} className={inputClasses} />
                    </label>
                    <Button type="button" variant="secondary" onClick={() => setRows((r) => r.filter((_, j) => j !== i))} aria-label={`Remove milestone ${i + 1}`}>
                      Remove
                    </Button>
                  </li>
                ))}
              </ol>
              {errors.fields.milestones && <ErrorMessage>{errors.fields.milestones}</ErrorMessage>}
              <Button type="button" variant="secondary" className="mt-2" disabled={rows.length >= MAX_MILESTONES} onClick={() => setRows((r) => [...r, { referrals: String((Number(r.at(-1)?.referrals) || 0) + 3), name: "" }])}>
                Add a milestone
              </Button>
            </fieldset>
            <fieldset>
              <legend className="text-sm font-medium text-zinc-800">Sections shown</legend>
              {PORTAL_SECTIONS.map((s) => (
                <label key={s} className="mt-1 flex items-center gap-2 text-sm">
                  <input type="checkbox" checked={sections[s]} onChange={(e) => setSections((x) => ({ ...x, [s]: e.target.checked }))} className="size-4 accent-brand-600" />
                  {SECTION_LABELS[s]}
                </label>
              ))}
            </fieldset>
            <FormField label="Friends' display attribute" optional error={errors.fields["portal.friendNameAttribute"]} hint="The referee attribute shown as a friend's name (e.g. name). Empty: names are masked (first letter and dots).">
              {(p) => <input {...p} maxLength={ATTRIBUTE_KEY_MAX_LENGTH} value={attribute} onChange={(e) => setAttribute(e.target.value)} className={inputClasses} />}
            </FormField>
            {errors.message && <ErrorMessage>{errors.message}</ErrorMessage>}
            {saved && <StatusMessage>Referrer portal saved.</StatusMessage>}
            <div className="flex flex-wrap items-center gap-3">
              <Button type="submit" pending={save.isPending} disabled={!editing.allowed}>
                Save referrer portal
              </Button>
              {editing.reason && <span className="text-sm text-zinc-500">{editing.reason}</span>}
            </div>
          </fieldset>
        </form>
        <figure className="rounded-lg border border-zinc-300 shadow-sm">
          {/* The widget's own "Your referrals" view with sample friends; inert: a picture, not a second form. */}
          <div className="relative h-[560px] overflow-hidden rounded-lg bg-zinc-50" data-testid="portal-preview">
            <div ref={preview} inert className="absolute inset-0" />
          </div>
          <figcaption className="sr-only">Preview of the referrer portal with sample friends</figcaption>
        </figure>
      </div>
    </Card>
  );
}

export function PortalForm({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ projectId }));
  if (!campaign.data) return null;
  return <PortalEditor projectId={projectId} campaign={campaign.data} />;
}
