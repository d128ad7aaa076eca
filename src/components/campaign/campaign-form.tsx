"use client";

import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState, type FormEvent, type ReactNode } from "react";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { SelectControl } from "@/components/ui/select-control";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import {
  ATTRIBUTION_MODELS,
  BUTTON_POSITIONS,
  BUTTON_TYPES,
  COMPONENT_TYPES,
  DEFAULT_MATCH_WINDOW_MINUTES,
  MAX_ATTRIBUTION_WINDOW_DAYS,
  MAX_MATCH_WINDOW_MINUTES,
  MIN_ATTRIBUTION_WINDOW_DAYS,
  MIN_MATCH_WINDOW_MINUTES,
  MODAL_DESCRIPTION_MAX_LENGTH,
  MODAL_TITLE_MAX_LENGTH,
  PROMO_POSITIONS,
  PROMO_TEXT_MAX_LENGTH,
} from "@/lib/schemas/campaigns";
import { ATTRIBUTE_KEY_MAX_LENGTH } from "@/lib/schemas/app-users";
import { useTRPC } from "@/lib/trpc";
import type { RouterOutputs } from "@/lib/trpc-types";
import { CampaignPreview, type NewUserExperience, type ReferrerExperience } from "./campaign-preview";
import { ColorField } from "./color-field";
import { checkRulesDraft, REWARD_RULE_FIELDS, RewardRulesSection, rulesDraft, type RulesDraft } from "./reward-rules-form";
import { useUnsavedChanges } from "./use-unsaved-changes";
import { MobileSetup } from "./mobile-setup";
import { WidgetSetup } from "./widget-setup";

type Campaign = RouterOutputs["campaigns"]["get"];

const RE = "referrerExperience";
const NU = "newUserExperience";
/** Every field the server may name in a validation error, as a dotted path. */
const FIELDS = [
  `${RE}.triggerButton.buttonType`,
  `${RE}.triggerButton.buttonPosition`,
  `${RE}.modal.componentType`,
  `${RE}.modal.modalTitle`,
  `${RE}.modal.modalDescription`,
  `${RE}.theme.themeColor`,
  `${RE}.theme.backgroundColor`,
  `${RE}.theme.tintColor`,
  `${RE}.theme.tintAlpha`,
  `${NU}.promoText`,
  `${NU}.promoPosition`,
  `${NU}.referrerNameAttribute`,
  "attributionWindowDays",
  "matchWindowMinutes",
  "attributionModel",
] as const;

/** The shared enums with their words for people; a new value without words fails the type check. */
const labelled = <V extends string>(values: readonly V[], labels: Record<V, string>) => values.map((v) => [v, labels[v]] as const);
const BUTTON_TYPE_OPTIONS = labelled(BUTTON_TYPES, {
  floating: "Floating (pill over the content)",
  edge: "Edge (tab on the viewport edge)",
  none: "None (your app opens it)",
});
const COMPONENT_TYPE_OPTIONS = labelled(COMPONENT_TYPES, {
  modal: "Modal (centred dialog)",
  drawer: "Drawer (sheet from the bottom)",
});
const ATTRIBUTION_MODEL_OPTIONS = labelled(ATTRIBUTION_MODELS, {
  first: "First arrival (the referrer who brought them first)",
  last: "Last arrival (the referrer who brought them last)",
});

function Counter({ length, max }: { length: number; max: number }) {
  return <span className={length > max ? "font-medium text-red-700" : undefined}>{`${length} / ${max} characters`}</span>;
}

function Section({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-md border border-zinc-200 p-4">
      <legend className="px-1 text-sm font-semibold text-zinc-800">{legend}</legend>
      {children}
    </fieldset>
  );
}

/** What the form holds, compared with what was last saved to know whether leaving loses anything. */
const snapshot = (referrer: ReferrerExperience, newUser: NewUserExperience, windowDays: string, matchMinutes: string, model: string, rules: RulesDraft) =>
  JSON.stringify([referrer, newUser, windowDays, matchMinutes, model, rules]);

type SetupProps = { publishableKey?: string; identityVerification?: boolean; appType?: "Web" | "Mobile" };

function CampaignEditor({ projectId, campaign, publishableKey, identityVerification, appType }: { projectId: string; campaign: Campaign } & SetupProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [referrer, setReferrer] = useState<ReferrerExperience>(campaign.referrerExperience);
  const [newUser, setNewUser] = useState<NewUserExperience>(campaign.newUserExperience);
  const [windowDays, setWindowDays] = useState(String(campaign.attributionWindowDays));
  const [matchMinutes, setMatchMinutes] = useState(String(campaign.matchWindowMinutes));
  const [attributionModel, setAttributionModel] = useState(campaign.attributionModel);
  const [rules, setRules] = useState(() => rulesDraft(campaign.rewardRules, campaign.revokeOn));
  // The match window only matters to Mobile projects (deferred deep linking).
  const queriedType = useQuery(trpc.projects.get.queryOptions({ projectId })).data?.appType;
  const mobile = (appType ?? queriedType) === "Mobile";
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [saved, setSaved] = useState(false);
  const permission = usePermission("campaigns.update");
  const [savedSnapshot, setSavedSnapshot] = useState(() =>
    snapshot(
      campaign.referrerExperience,
      campaign.newUserExperience,
      String(campaign.attributionWindowDays),
      String(campaign.matchWindowMinutes),
      campaign.attributionModel,
      rulesDraft(campaign.rewardRules, campaign.revokeOn),
    ),
  );
  const current = snapshot(referrer, newUser, windowDays, matchMinutes, attributionModel, rules);
  const dirty = current !== savedSnapshot;
  const submitted = useRef(current);
  useUnsavedChanges(dirty);
  const save = useMutation(
    trpc.campaigns.update.mutationOptions({
      onSuccess: (updated) => {
        setErrors(noErrors);
        setSaved(true);
        setSavedSnapshot(submitted.current);
        queryClient.setQueryData(trpc.campaigns.get.queryKey({ projectId }), updated);
      },
      onError: (error) => {
        setSaved(false);
        setErrors(toFormErrors(error, [...FIELDS, ...REWARD_RULE_FIELDS]));
      },
    }),
  );

  const edit = <S extends keyof ReferrerExperience>(section: S, patch: Partial<ReferrerExperience[S]>) => {
    setReferrer((current) => ({ ...current, [section]: { ...current[section], ...patch } }));
    setSaved(false);
  };
  const editNewUser = (patch: Partial<NewUserExperience>) => {
    setNewUser((current) => ({ ...current, ...patch }));
    setSaved(false);
  };
  const e = (field: (typeof FIELDS)[number]) => errors.fields[field];
  const editRules = (draft: RulesDraft) => {
    setRules(draft);
    setSaved(false);
  };

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The reward rules are checked by the API's own schema first, so the form says what the server would.
    const checked = checkRulesDraft(rules);
    if (!checked.ok) {
      setSaved(false);
      setErrors({ message: null, fields: checked.fields });
      return;
    }
    submitted.current = current;
    save.mutate({
      rewardRules: checked.patch,
      revokeOn: rules.revokeOn,
      projectId,
      referrerExperience: referrer,
      newUserExperience: newUser,
      // An empty or malformed box sends 0, which the server refuses with its own message.
      attributionWindowDays: Number(windowDays) || 0,
      matchWindowMinutes: Number(matchMinutes) || 0,
      attributionModel,
    });
  }

  const { triggerButton, modal, theme } = referrer;
  return (
    <form onSubmit={onSubmit} noValidate aria-label="Campaign" className="grid gap-6 xl:grid-cols-[minmax(22rem,1fr)_minmax(0,1.2fr)] xl:items-start">
      {/* A viewer reads the campaign: every field disabled, not only Save (a disabled fieldset does that natively). */}
      <fieldset disabled={!permission.allowed} aria-describedby={permission.allowed ? undefined : "campaign-read-only"} className="min-w-0 space-y-6">
        {!permission.allowed && (
          <p id="campaign-read-only" className="rounded-md border border-zinc-200 bg-white px-3 py-2 text-sm text-zinc-600">
            Read only: your role can view this campaign but not change it.
          </p>
        )}
        <Card title="Referrer experience" description="What existing users see when they invite friends.">
          <div className="space-y-5">
            <Section legend="Trigger button">
              <div className="grid gap-4 [grid-template-columns:repeat(auto-fit,minmax(17rem,1fr))]">
                <FormField label="Button type" error={e(`${RE}.triggerButton.buttonType`)}>
                  {(p) => <SelectControl control={p} value={triggerButton.buttonType} options={BUTTON_TYPE_OPTIONS} onChange={(buttonType) => edit("triggerButton", { buttonType })} />}
                </FormField>
                <FormField label="Button position" error={e(`${RE}.triggerButton.buttonPosition`)}>
                  {(p) => (
                    <SelectControl
                      control={p}
                      value={triggerButton.buttonPosition}
                      options={BUTTON_POSITIONS}
                      disabled={triggerButton.buttonType === "none"}
                      onChange={(buttonPosition) => edit("triggerButton", { buttonPosition })}
                    />
                  )}
                </FormField>
              </div>
            </Section>
            <Section legend="Sharing UI">
              <FormField label="Component" error={e(`${RE}.modal.componentType`)} className="max-w-sm">
                {(p) => <SelectControl control={p} value={modal.componentType} options={COMPONENT_TYPE_OPTIONS} onChange={(componentType) => edit("modal", { componentType })} />}
              </FormField>
              <FormField label="Title" error={e(`${RE}.modal.modalTitle`)} hint={<Counter length={modal.modalTitle.length} max={MODAL_TITLE_MAX_LENGTH} />}>
                {(p) => <input {...p} value={modal.modalTitle} onChange={(ev) => edit("modal", { modalTitle: ev.target.value })} className={inputClasses} />}
              </FormField>
              <FormField label="Description" error={e(`${RE}.modal.modalDescription`)} hint={<Counter length={modal.modalDescription.length} max={MODAL_DESCRIPTION_MAX_LENGTH} />}>
                {(p) => (
                  <textarea {...p} rows={3} value={modal.modalDescription} onChange={(ev) => edit("modal", { modalDescription: ev.target.value })} className={inputClasses} />
                )}
              </FormField>
            </Section>
            <Section legend="Theme">
              <div className="grid gap-4 [grid-template-columns:repeat(auto-fit,minmax(12rem,1fr))]">
                <ColorField label="Theme colour" value={theme.themeColor} onChange={(v) => edit("theme", { themeColor: v })} error={e(`${RE}.theme.themeColor`)} />
                <ColorField
                  label="Background colour"
                  value={theme.backgroundColor}
                  onChange={(v) => edit("theme", { backgroundColor: v })}
                  error={e(`${RE}.theme.backgroundColor`)}
                />
                <ColorField label="Tint colour" value={theme.tintColor} onChange={(v) => edit("theme", { tintColor: v })} error={e(`${RE}.theme.tintColor`)} />
              </div>
              <FormField
                label="Tint opacity"
                error={e(`${RE}.theme.tintAlpha`)}
                hint="How strongly the page behind the sharing UI is tinted: 0 transparent, 1 opaque."
                className="max-w-sm"
              >
                {(p) => (
                  <div className="flex items-center gap-3">
                    <input
                      {...p}
                      type="range"
                      min={0}
                      max={1}
                      step={0.05}
                      value={theme.tintAlpha}
                      onChange={(ev) => edit("theme", { tintAlpha: Number(ev.target.value) })}
                      className="flex-1 accent-brand-600"
                    />
                    <output className="w-10 text-right font-mono text-sm tabular-nums">{theme.tintAlpha.toFixed(2)}</output>
                  </div>
                )}
              </FormField>
            </Section>
          </div>
        </Card>
        <Card title="New user experience" description="The dismissible banner shown when someone arrives with a referral code.">
          <div className="space-y-4">
            <FormField label="Promo text" error={e(`${NU}.promoText`)} hint={<Counter length={newUser.promoText.length} max={PROMO_TEXT_MAX_LENGTH} />}>
              {(p) => <textarea {...p} rows={3} value={newUser.promoText} onChange={(ev) => editNewUser({ promoText: ev.target.value })} className={inputClasses} />}
            </FormField>
            <FormField label="Promo position" error={e(`${NU}.promoPosition`)} className="max-w-sm">
              {(p) => <SelectControl control={p} value={newUser.promoPosition} options={PROMO_POSITIONS} onChange={(promoPosition) => editNewUser({ promoPosition })} />}
            </FormField>
            <FormField
              label="Referrer name attribute"
              error={e(`${NU}.referrerNameAttribute`)}
              hint={'The banner says who invited the visitor: the referrer\'s attribute with this key, e.g. name when identify sends attributes: { name: "Ada" }.'}
              className="max-w-sm"
            >
              {(p) => (
                <input
                  {...p}
                  value={newUser.referrerNameAttribute}
                  maxLength={ATTRIBUTE_KEY_MAX_LENGTH}
                  onChange={(ev) => editNewUser({ referrerNameAttribute: ev.target.value })}
                  className={`${inputClasses} font-mono`}
                />
              )}
            </FormField>
          </div>
        </Card>
        <Card title="Attribution">
          <FormField
            label="Attribution window (days)"
            error={e("attributionWindowDays")}
            hint={`How long a tracked referral stays eligible for its reward (${MIN_ATTRIBUTION_WINDOW_DAYS} to ${MAX_ATTRIBUTION_WINDOW_DAYS}).`}
            className="max-w-xs"
          >
            {(p) => (
              <input
                {...p}
                type="number"
                min={MIN_ATTRIBUTION_WINDOW_DAYS}
                max={MAX_ATTRIBUTION_WINDOW_DAYS}
                step={1}
                value={windowDays}
                onChange={(ev) => {
                  setWindowDays(ev.target.value);
                  setSaved(false);
                }}
                className={inputClasses}
              />
            )}
          </FormField>
          <FormField
            label="Referee who arrived more than once"
            error={e("attributionModel")}
            hint="A referee completes one referral per project. This decides which of their arrivals may complete it; a reward for another arrival fails."
            className="mt-4 max-w-md"
          >
            {(p) => (
              <SelectControl
                control={p}
                value={attributionModel}
                options={ATTRIBUTION_MODEL_OPTIONS}
                onChange={(model) => {
                  setAttributionModel(model);
                  setSaved(false);
                }}
              />
            )}
          </FormField>
          {mobile && (
            <FormField
              label="Install match window (minutes)"
              error={e("matchWindowMinutes")}
              hint={`How long after a tap on a referral link an app's first launch may be matched to it by device fingerprint, when no install referrer, clipboard token or link says so with certainty (${MIN_MATCH_WINDOW_MINUTES} to ${MAX_MATCH_WINDOW_MINUTES}, default ${DEFAULT_MATCH_WINDOW_MINUTES}). Taps older than this are deleted.`}
              className="mt-4 max-w-xs"
            >
              {(p) => (
                <input
                  {...p}
                  type="number"
                  min={MIN_MATCH_WINDOW_MINUTES}
                  max={MAX_MATCH_WINDOW_MINUTES}
                  step={1}
                  value={matchMinutes}
                  onChange={(ev) => {
                    setMatchMinutes(ev.target.value);
                    setSaved(false);
                  }}
                  className={inputClasses}
                />
              )}
            </FormField>
          )}
        </Card>
        <Card title="Reward protection" description="Rules against reward farming. All off by default: a reward is then granted as soon as the eligibility checks pass.">
          <RewardRulesSection draft={rules} onChange={editRules} errors={errors.fields} />
        </Card>
        <div className="sticky bottom-0 -mx-1 flex flex-wrap items-center gap-3 border-t border-zinc-200 bg-zinc-50/95 px-1 py-3 backdrop-blur">
          <Button type="submit" pending={save.isPending} disabled={!permission.allowed}>
            Save campaign
          </Button>
          <PermissionNote reason={permission.reason} />
          {saved && !dirty && <StatusMessage>Saved: the whole campaign, reward protection included.</StatusMessage>}
          {dirty && permission.allowed && <span className="text-sm text-amber-800">Unsaved changes</span>}
          {errors.message && (
            <div className="min-w-0 flex-1">
              <ErrorMessage>{errors.message}</ErrorMessage>
            </div>
          )}
          {!errors.message && Object.keys(errors.fields).length > 0 && (
            <p className="text-sm text-red-700">Some fields need attention: see the messages above.</p>
          )}
        </div>
      </fieldset>
      {/* Beside the form on wide screens, and kept in view while scrolling through it; after the form in the
          document, so the tab order follows the layout (the fields first, then the preview and set-up). */}
      <aside aria-label="Preview" className="space-y-6 xl:sticky xl:top-6">
        <Card title="Preview" description="The widget itself, as your users will see it. Updates as you edit, before saving.">
          <CampaignPreview referrer={referrer} newUser={newUser} />
        </Card>
        {mobile ? (
          <MobileSetup publishableKey={publishableKey} identityVerification={identityVerification} />
        ) : (
          <WidgetSetup publishableKey={publishableKey} identityVerification={identityVerification} />
        )}
      </aside>
    </form>
  );
}

/**
 * `publishableKey`: the project's `pk_` key for the setup snippet (a placeholder is shown without it);
 * `identityVerification`: whether the snippet's userHash is required; `appType`: Mobile projects get the
 * mobile client's set-up instead of the widget's.
 */
export function CampaignForm({ projectId, ...setup }: { projectId: string } & SetupProps) {
  const trpc = useTRPC();
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ projectId }));
  if (campaign.isPending) return <p className="text-sm text-zinc-500">Loading campaign…</p>;
  if (campaign.isError) return <ErrorMessage>{toFormErrors(campaign.error).message}</ErrorMessage>;
  return <CampaignEditor projectId={projectId} campaign={campaign.data} {...setup} />;
}
