"use client";

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { SelectControl } from "@/components/ui/select-control";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { MAX_HOLD_DAYS, rewardRulesPatchSchema, type RevokeKind, type RevokeOn, type RewardRules, type RuleMode } from "@/lib/schemas/reward-rules";
import { useTRPC } from "@/lib/trpc";

const CAPS = [
  ["perDay", "Per UTC day"],
  ["perMonth", "Per UTC month"],
  ["lifetime", "In all"],
] as const;
type CapKey = (typeof CAPS)[number][0];
const MODE_OPTIONS = [
  ["off", "Off"],
  ["review", "Hold for review"],
  ["block", "Refuse the reward"],
] as const;
const FIELDS = ["rewardRules.maxRewardsPerReferrer.perDay", "rewardRules.maxRewardsPerReferrer.perMonth", "rewardRules.maxRewardsPerReferrer.lifetime", "rewardRules.maxRewardsPerReferrer", "rewardRules.disposableEmail", "rewardRules.sameDevice", "rewardRules.holdDays"] as const;

const REVOKE_ON: [RevokeKind, string][] = [
  ["refund", "A full refund (Stripe charge.refunded; RevenueCat cancellation for customer support)"],
  ["dispute", "A dispute (Stripe charge.dispute.created)"],
  ["trialCancellation", "A cancellation while still in the trial"],
];

/** A cap box: empty is no cap; anything else is sent as a number for the shared schema to judge. */
const capValue = (text: string) => (text.trim() === "" ? undefined : Number(text));

function RewardRulesEditor({ projectId, rules, revokeOn: storedRevokeOn }: { projectId: string; rules: RewardRules; revokeOn: RevokeOn }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const editing = usePermission("campaigns.update");
  const [caps, setCaps] = useState<Record<CapKey, string>>({
    perDay: String(rules.maxRewardsPerReferrer.perDay ?? ""),
    perMonth: String(rules.maxRewardsPerReferrer.perMonth ?? ""),
    lifetime: String(rules.maxRewardsPerReferrer.lifetime ?? ""),
  });
  const [disposableEmail, setDisposableEmail] = useState<RuleMode>(rules.disposableEmail);
  const [sameDevice, setSameDevice] = useState<RuleMode>(rules.sameDevice);
  const [holdDays, setHoldDays] = useState(String(rules.holdDays));
  const [revokeOn, setRevokeOn] = useState<RevokeOn>(storedRevokeOn);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [saved, setSaved] = useState(false);
  const save = useMutation(
    trpc.campaigns.update.mutationOptions({
      onSuccess: (updated) => {
        setErrors(noErrors);
        setSaved(true);
        queryClient.setQueryData(trpc.campaigns.get.queryKey({ projectId }), updated);
      },
      onError: (error) => setErrors(toFormErrors(error, FIELDS)),
    }),
  );

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setSaved(false);
    const maxRewardsPerReferrer = Object.fromEntries(CAPS.map(([key]) => [key, capValue(caps[key])]).filter(([, v]) => v !== undefined));
    const patch = { maxRewardsPerReferrer, disposableEmail, sameDevice, holdDays: holdDays.trim() === "" ? 0 : Number(holdDays) };
    // The API's own schema, so the form says what the server would, before sending.
    const checked = rewardRulesPatchSchema.safeParse(patch);
    if (!checked.success) {
      const fields: Record<string, string> = {};
      for (const issue of checked.error.issues) fields[["rewardRules", ...issue.path].join(".")] ??= issue.message;
      setErrors({ message: null, fields });
      return;
    }
    save.mutate({ projectId, rewardRules: checked.data, revokeOn });
  }
  const e = (field: string) => errors.fields[field];

  return (
    <Card title="Reward protection" description="Rules against reward farming. All off by default: a reward is then granted as soon as the eligibility checks pass.">
      <form onSubmit={onSubmit} noValidate aria-label="Reward protection">
        {/* A viewer reads the rules: every field disabled, as in the campaign editor above. */}
        <fieldset disabled={!editing.allowed} className="min-w-0 space-y-5">
          <fieldset>
            <legend className="text-sm font-medium text-zinc-800">Rewards per referrer</legend>
            <p className="text-sm text-zinc-500">A reward over a cap is refused (referrer_cap_reached). Leave a box empty for no cap.</p>
            <div className="mt-2 grid gap-3 sm:grid-cols-3">
              {CAPS.map(([key, label]) => (
                <FormField key={key} label={label} optional error={e(`rewardRules.maxRewardsPerReferrer.${key}`)}>
                  {(p) => (
                    <input
                      {...p}
                      type="number"
                      min={1}
                      step={1}
                      value={caps[key]}
                      onChange={(ev) => setCaps((c) => ({ ...c, [key]: ev.target.value }))}
                      className={inputClasses}
                    />
                  )}
                </FormField>
              ))}
            </div>
          </fieldset>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField label="Disposable e-mail address" error={e("rewardRules.disposableEmail")} hint="Judged on the referee's email attribute.">
              {(p) => <SelectControl control={p} value={disposableEmail} options={MODE_OPTIONS} onChange={setDisposableEmail} />}
            </FormField>
            <FormField label="Same address or device as the referrer" error={e("rewardRules.sameDevice")} hint="Seen within 24 hours of each other.">
              {(p) => <SelectControl control={p} value={sameDevice} options={MODE_OPTIONS} onChange={setSameDevice} />}
            </FormField>
          </div>
          <FormField label="Hold every reward (days)" error={e("rewardRules.holdDays")} hint={`0 to ${MAX_HOLD_DAYS}. A held reward waits in the review queue, then completes by itself.`} className="max-w-xs">
            {(p) => <input {...p} type="number" min={0} max={MAX_HOLD_DAYS} step={1} value={holdDays} onChange={(ev) => setHoldDays(ev.target.value)} className={inputClasses} />}
          </FormField>
          <fieldset>
            <legend className="text-sm font-medium text-zinc-800">Revoke on (inbound conversions)</legend>
            <p className="text-sm text-zinc-500">Which provider events take back the reward of the referral their payment completed.</p>
            {REVOKE_ON.map(([key, label]) => (
              <label key={key} className="mt-1 flex items-center gap-2 text-sm text-zinc-800">
                <input type="checkbox" checked={revokeOn[key]} onChange={(ev) => setRevokeOn((r) => ({ ...r, [key]: ev.target.checked }))} className="size-4 accent-brand-600" />
                {label}
              </label>
            ))}
          </fieldset>
          {errors.message && <ErrorMessage>{errors.message}</ErrorMessage>}
          {saved && <StatusMessage>Reward protection saved.</StatusMessage>}
          <div className="flex flex-wrap items-center gap-3">
            <Button type="submit" pending={save.isPending} disabled={!editing.allowed}>
              Save reward protection
            </Button>
            {editing.reason && <span className="text-sm text-zinc-500">{editing.reason}</span>}
          </div>
        </fieldset>
      </form>
    </Card>
  );
}

export function RewardRulesForm({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ projectId }));
  if (!campaign.data) return null;
  return <RewardRulesEditor projectId={projectId} rules={campaign.data.rewardRules} revokeOn={campaign.data.revokeOn} />;
}
