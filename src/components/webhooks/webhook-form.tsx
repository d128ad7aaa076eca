"use client";

import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { ErrorMessage } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { noErrors, toFormErrors, type FormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { RECOVERY_WINDOW_DAYS, WEBHOOK_NAME_MAX_LENGTH } from "@/lib/schemas/webhooks";
import { DEFAULT_WEBHOOK_EVENTS, WEBHOOK_EVENT_DESCRIPTIONS, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "@/lib/schemas/webhook-events";
import { generateWebhookSecret, MAX_WEBHOOK_SECRET_LENGTH, MIN_WEBHOOK_SECRET_LENGTH } from "@/lib/webhook-secrets";
import { WEBHOOK_ENVIRONMENT_OPTIONS, type CreatedWebhook, type Webhook, type WebhookEnvironment } from "./types";

const FIELDS = ["name", "url", "secret", "environment", "enabled", "events", "autoRecover"] as const;

type Values = { name: string; url: string; secret: string; environment: WebhookEnvironment; enabled: boolean; events: WebhookEventType[]; autoRecover: boolean };

function readForm(form: HTMLFormElement, secret: string): Values {
  const data = new FormData(form);
  return {
    name: String(data.get("name") ?? "").trim(),
    url: String(data.get("url") ?? "").trim(),
    secret,
    environment: String(data.get("environment") ?? "Both") as WebhookEnvironment,
    enabled: data.get("enabled") === "on",
    events: data.getAll("events").map(String) as WebhookEventType[],
    autoRecover: data.get("autoRecover") === "on",
  };
}

type WebhookFormProps = { projectId: string; onCancel?: () => void } & (
  | { mode: "create"; campaignId: string; onCreated: (webhook: CreatedWebhook) => void }
  | { mode: "edit"; webhook: Webhook; onSaved: (webhook: Webhook) => void }
);

/** Create a webhook, or edit one (an empty secret keeps the current one). */
export function WebhookForm(props: WebhookFormProps) {
  const { projectId, mode } = props;
  const existing = mode === "edit" ? props.webhook : null;
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [secret, setSecret] = useState("");
  const [url, setUrl] = useState(existing?.url ?? "");
  // The current secret never follows a new URL: the form then asks for a new one (the service refuses without).
  const urlMoved = existing !== null && url.trim() !== existing.url;
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const onError = (error: unknown) => setErrors(toFormErrors(error, FIELDS));
  const refreshList = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey({ projectId }) });
  const create = useMutation(trpc.webhooks.create.mutationOptions({ onError }));
  const update = useMutation(trpc.webhooks.update.mutationOptions({ onError }));

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const { secret: newSecret, ...values } = readForm(form, secret);
    // An empty secret keeps the current one, or on creation asks the service to generate one.
    const secretField = newSecret ? { secret: newSecret } : {};
    setErrors(noErrors);
    if (props.mode === "create") {
      const { onCreated } = props;
      create.mutate(
        { projectId, campaignId: props.campaignId, ...values, ...secretField },
        {
          onSuccess: async (created) => {
            form.reset();
            setSecret("");
            onCreated(created);
            await refreshList();
          },
        },
      );
    } else {
      const { onSaved } = props;
      update.mutate(
        { projectId, webhookId: props.webhook.id, ...values, ...secretField },
        {
          onSuccess: async (saved) => {
            setSecret("");
            queryClient.setQueryData(trpc.webhooks.get.queryKey({ projectId, webhookId: saved.id }), saved);
            onSaved(saved);
            await refreshList();
          },
        },
      );
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate aria-label={existing ? `Edit webhook ${existing.name}` : "New webhook"} className="max-w-2xl space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <FormField label="Name" error={errors.fields.name}>
          {(p) => <input {...p} name="name" defaultValue={existing?.name} maxLength={WEBHOOK_NAME_MAX_LENGTH} placeholder="Billing backend" className={inputClasses} />}
        </FormField>
        <FormField label="Environment" error={errors.fields.environment} hint="Which reward calls reach this webhook.">
          {(p) => (
            <select {...p} name="environment" defaultValue={existing?.environment ?? "Both"} className={inputClasses}>
              {WEBHOOK_ENVIRONMENT_OPTIONS.map((env) => (
                <option key={env.value} value={env.value}>
                  {env.label}
                </option>
              ))}
            </select>
          )}
        </FormField>
      </div>
      <FormField label="URL" error={errors.fields.url} hint="Receives a POST per reward. HTTPS, on a public address.">
        {(p) => (
          <input
            {...p}
            name="url"
            type="url"
            inputMode="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://api.example.com/referral-rewards"
            className={`${inputClasses} font-mono`}
          />
        )}
      </FormField>
      <FormField
        label="Secret"
        optional={!urlMoved}
        error={errors.fields.secret}
        hint={
          urlMoved
            ? "A new URL needs a new secret: enter one or press Generate, and store it before saving (it is not shown again). The current secret stops working."
            : existing
            ? `Leave empty to keep the current secret (${existing.secretHint}).`
            : `Leave empty for a generated Standard Webhooks secret (whsec_…), or enter at least ${MIN_WEBHOOK_SECRET_LENGTH} visible ASCII characters. Sent as Authorization: Bearer <secret> and used to sign each delivery.`
        }
      >
        {(p) => (
          <div className="flex gap-2">
            <input
              {...p}
              name="secret"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
              autoComplete="off"
              spellCheck={false}
              maxLength={MAX_WEBHOOK_SECRET_LENGTH}
              className={`${inputClasses} font-mono`}
            />
            <Button variant="secondary" onClick={() => setSecret(generateWebhookSecret())}>
              Generate
            </Button>
          </div>
        )}
      </FormField>
      <fieldset className="space-y-1">
        <legend className="text-sm font-medium text-zinc-800">Events</legend>
        <p className="text-sm text-zinc-500">The event types this webhook receives (each delivery says its type in X-Service-Event-Type).</p>
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <label key={type} className="flex items-start gap-2 text-sm text-zinc-800">
            <input
              type="checkbox"
              name="events"
              value={type}
              defaultChecked={(existing?.events ?? DEFAULT_WEBHOOK_EVENTS).includes(type)}
              className="mt-0.5 size-4 accent-brand-600"
            />
            <span>
              <code className="font-mono text-xs">{type}</code> <span className="text-zinc-500">{WEBHOOK_EVENT_DESCRIPTIONS[type]}</span>
            </span>
          </label>
        ))}
        {errors.fields.events && <p className="text-sm text-red-700">{errors.fields.events}</p>}
      </fieldset>
      <label className="flex items-center gap-2 text-sm text-zinc-800">
        <input type="checkbox" name="enabled" defaultChecked={existing?.enabled ?? true} className="size-4 accent-brand-600" />
        Enabled
      </label>
      {errors.fields.enabled && <p className="text-sm text-red-700">{errors.fields.enabled}</p>}
      <label className="flex items-start gap-2 text-sm text-zinc-800">
        <input type="checkbox" name="autoRecover" defaultChecked={existing?.autoRecover ?? false} className="mt-0.5 size-4 accent-brand-600" />
        <span>
          Resend what failed while the endpoint was down
          <span className="block text-xs text-zinc-600">
            After the first success following failures, deliveries that used up their attempts in the last {RECOVERY_WINDOW_DAYS} days are sent again, once each.
          </span>
        </span>
      </label>
      {errors.fields.autoRecover && <p className="text-sm text-red-700">{errors.fields.autoRecover}</p>}
      <ErrorMessage>{errors.message}</ErrorMessage>
      <div className="flex items-center gap-3">
        <Button type="submit" pending={create.isPending || update.isPending}>
          {existing ? "Save webhook" : "Create webhook"}
        </Button>
        {props.onCancel && (
          <Button variant="ghost" onClick={props.onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
