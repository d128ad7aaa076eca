"use client";

import { FormField, inputClasses } from "@/components/ui/form-field";
import { SelectControl } from "@/components/ui/select-control";
import { MAX_HOLD_DAYS, rewardRulesPatchSchema, type RevokeKind, type RevokeOn, type RewardRules, type RewardRulesPatch, type RuleMode } from "@/lib/schemas/reward-rules";

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
export const REWARD_RULE_FIELDS = [
  "rewardRules.maxRewardsPerReferrer.perDay",
  "rewardRules.maxRewardsPerReferrer.perMonth",
  "rewardRules.maxRewardsPerReferrer.lifetime",
  "rewardRules.maxRewardsPerReferrer",
  "rewardRules.disposableEmail",
  "rewardRules.sameDevice",
  "rewardRules.holdDays",
] as const;

const REVOKE_ON: [RevokeKind, string][] = [
  ["refund", "A full refund (Stripe charge.refunded; RevenueCat cancellation for customer support)"],
  ["dispute", "A dispute (Stripe charge.dispute.created)"],
  ["trialCancellation", "A cancellation while still in the trial"],
];

/** What the reward protection boxes hold: the caps and the hold as typed, and what revokes a reward. */
export type RulesDraft = { caps: Record<CapKey, string>; disposableEmail: RuleMode; sameDevice: RuleMode; holdDays: string; revokeOn: RevokeOn };

export const rulesDraft = (rules: RewardRules, revokeOn: RevokeOn): RulesDraft => ({
  revokeOn,
  caps: {
    perDay: String(rules.maxRewardsPerReferrer.perDay ?? ""),
    perMonth: String(rules.maxRewardsPerReferrer.perMonth ?? ""),
    lifetime: String(rules.maxRewardsPerReferrer.lifetime ?? ""),
  },
  disposableEmail: rules.disposableEmail,
  sameDevice: rules.sameDevice,
  holdDays: String(rules.holdDays),
});

/** A cap box: empty is no cap; anything else is sent as a number for the shared schema to judge. */
const capValue = (text: string) => (text.trim() === "" ? undefined : Number(text));

/**
 * The draft checked by the API's own schema, so the form says what the server would before sending:
 * the patch, or the issues by field (`rewardRules.<path>`).
 */
export function checkRulesDraft(draft: RulesDraft): { ok: true; patch: RewardRulesPatch } | { ok: false; fields: Record<string, string> } {
  const maxRewardsPerReferrer = Object.fromEntries(CAPS.map(([key]) => [key, capValue(draft.caps[key])]).filter(([, v]) => v !== undefined));
  const patch = { maxRewardsPerReferrer, disposableEmail: draft.disposableEmail, sameDevice: draft.sameDevice, holdDays: draft.holdDays.trim() === "" ? 0 : Number(draft.holdDays) };
  const checked = rewardRulesPatchSchema.safeParse(patch);
  if (checked.success) return { ok: true, patch: checked.data };
  const fields: Record<string, string> = {};
  for (const issue of checked.error.issues) fields[["rewardRules", ...issue.path].join(".")] ??= issue.message;
  return { ok: false, fields };
}

/**
 * The campaign's reward protection (rules against reward farming), a section of the campaign's one
 * form: saved with the rest of the campaign by its one Save, and so covered by its unsaved-changes guard.
 */
export function RewardRulesSection({ draft, onChange, errors }: { draft: RulesDraft; onChange: (draft: RulesDraft) => void; errors: Record<string, string | undefined> }) {
  const e = (field: string) => errors[field];
  return (
    <div className="space-y-5">
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800">Rewards per referrer</legend>
        <p className="text-sm text-zinc-500">A reward over a cap is refused (referrer_cap_reached). Leave a box empty for no cap.</p>
        <div className="mt-2 grid gap-3 [grid-template-columns:repeat(auto-fit,minmax(9rem,1fr))]">
          {CAPS.map(([key, label]) => (
            <FormField key={key} label={label} optional error={e(`rewardRules.maxRewardsPerReferrer.${key}`)}>
              {(p) => (
                <input
                  {...p}
                  type="number"
                  min={1}
                  step={1}
                  value={draft.caps[key]}
                  onChange={(ev) => onChange({ ...draft, caps: { ...draft.caps, [key]: ev.target.value } })}
                  className={inputClasses}
                />
              )}
            </FormField>
          ))}
        </div>
      </fieldset>
      <div className="grid gap-4 [grid-template-columns:repeat(auto-fit,minmax(15rem,1fr))]">
        <FormField label="Disposable e-mail address" error={e("rewardRules.disposableEmail")} hint="Judged on the referee's email attribute.">
          {(p) => <SelectControl control={p} value={draft.disposableEmail} options={MODE_OPTIONS} onChange={(disposableEmail) => onChange({ ...draft, disposableEmail })} />}
        </FormField>
        <FormField label="Same address or device as the referrer" error={e("rewardRules.sameDevice")} hint="Seen within 24 hours of each other.">
          {(p) => <SelectControl control={p} value={draft.sameDevice} options={MODE_OPTIONS} onChange={(sameDevice) => onChange({ ...draft, sameDevice })} />}
        </FormField>
      </div>
      <FormField label="Hold every reward (days)" error={e("rewardRules.holdDays")} hint={`0 to ${MAX_HOLD_DAYS}. A held reward waits in the review queue, then completes by itself.`} className="max-w-xs">
        {(p) => (
          <input {...p} type="number" min={0} max={MAX_HOLD_DAYS} step={1} value={draft.holdDays} onChange={(ev) => onChange({ ...draft, holdDays: ev.target.value })} className={inputClasses} />
        )}
      </FormField>
      <fieldset>
        <legend className="text-sm font-medium text-zinc-800">Revoke on (inbound conversions)</legend>
        <p className="text-sm text-zinc-500">Which provider events take back the reward of the referral their payment completed.</p>
        {REVOKE_ON.map(([key, label]) => (
          <label key={key} className="mt-1 flex items-center gap-2 text-sm text-zinc-800">
            <input
              type="checkbox"
              checked={draft.revokeOn[key]}
              onChange={(ev) => onChange({ ...draft, revokeOn: { ...draft.revokeOn, [key]: ev.target.checked } })}
              className="size-4 accent-brand-600"
            />
            {label}
          </label>
        ))}
      </fieldset>
    </div>
  );
}
