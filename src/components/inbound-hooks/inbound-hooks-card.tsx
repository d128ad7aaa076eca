"use client";

import Link from "next/link";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { CopyButton } from "@/components/ui/copy-button";
import { FormField, inputClasses } from "@/components/ui/form-field";
import { KeyValueEditor, recordFromRows, rowsFromRecord, type KeyValueRow } from "@/components/ui/key-value-editor";
import { toFormErrors } from "@/lib/errors";
import { STRIPE_SECRET_PREFIX, type InboundHooksDto, type UpdateInboundHooks } from "@/lib/schemas/inbound-hooks";
import { useTRPC } from "@/lib/trpc";

const FIELDS = ["stripeSigningSecret", "revenueCatAuthorization", "eventNames"] as const;

/** A value to paste somewhere else, in full, with its copy button. */
function CopyLine({ label, value }: { label: string; value: string }) {
  return (
    <div className="space-y-1">
      <p className="text-sm font-medium text-zinc-800">{label}</p>
      <div className="flex min-w-0 items-center gap-2">
        {/* A group, so that the label is read with the value (a bare code's label is ignored). */}
        <code role="group" aria-label={label} className="min-w-0 truncate rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs" title={value}>
          {value}
        </code>
        <CopyButton value={value} label={label} />
      </div>
    </div>
  );
}

function Configured({ on, what }: { on: boolean; what: string }) {
  return <Badge tone={on ? "green" : "neutral"}>{on ? `${what} configured` : `${what} not set up`}</Badge>;
}

/** One provider's secret: never shown back; typing a value replaces it, Remove turns the hook off. */
function SecretField(props: {
  label: string;
  configured: boolean;
  value: string;
  onChange: (value: string) => void;
  onRemove: () => void;
  error?: string;
  hint: ReactNode;
  placeholder: string;
  disabled: boolean;
}) {
  return (
    <FormField label={props.label} error={props.error} hint={props.hint} optional>
      {(p) => (
        <div className="flex items-center gap-2">
          <input
            {...p}
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={props.value}
            disabled={props.disabled}
            placeholder={props.configured ? "Configured: type a new value to replace it" : props.placeholder}
            onChange={(e) => props.onChange(e.target.value)}
            className={`${inputClasses} font-mono`}
          />
          {props.configured && (
            <Button variant="ghost" size="sm" disabled={props.disabled} onClick={props.onRemove} aria-label={`Remove ${props.label}`}>
              Remove
            </Button>
          )}
        </div>
      )}
    </FormField>
  );
}

function SettingsForm({ projectId, hooks }: { projectId: string; hooks: InboundHooksDto }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const write = usePermission("inboundHooks.write");
  const rotatePermission = usePermission("inboundHooks.rotateToken");
  const [stripe, setStripe] = useState("");
  const [revenueCat, setRevenueCat] = useState("");
  const [rows, setRows] = useState<KeyValueRow[]>(() => rowsFromRecord(hooks.eventNames));
  const [rowsError, setRowsError] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const key = trpc.inboundHooks.get.queryKey({ projectId });
  const onSuccess = (updated: InboundHooksDto, message: string) => {
    queryClient.setQueryData(key, updated);
    setSaved(message);
  };
  const update = useMutation(trpc.inboundHooks.update.mutationOptions());
  const rotate = useMutation(trpc.inboundHooks.rotateToken.mutationOptions({ onSuccess: (u) => onSuccess(u, "New token issued: paste the new URLs into Stripe and RevenueCat.") }));
  const errors = update.isError ? toFormErrors(update.error, FIELDS) : null;
  const disabled = !write.allowed || update.isPending;

  const send = (body: UpdateInboundHooks, message: string) => {
    setSaved(null);
    update.mutate(
      { projectId, ...body },
      {
        onSuccess: (u) => {
          onSuccess(u, message);
          setStripe("");
          setRevenueCat("");
        },
      },
    );
  };
  const save = () => {
    const mapping = recordFromRows(rows, "Event type");
    if ("error" in mapping) return setRowsError(mapping.error);
    setRowsError(null);
    send(
      {
        ...(stripe.trim() ? { stripeSigningSecret: stripe.trim() } : {}),
        ...(revenueCat ? { revenueCatAuthorization: revenueCat } : {}),
        eventNames: mapping.record,
      },
      "Saved.",
    );
  };

  return (
    <div className="space-y-6">
      <div className="space-y-3">
        <div className="flex flex-wrap gap-2">
          <Configured on={hooks.stripeConfigured} what="Stripe" />
          <Configured on={hooks.revenueCatConfigured} what="RevenueCat" />
        </div>
        <CopyLine label="Stripe URL" value={hooks.stripeUrl} />
        <CopyLine label="RevenueCat URL" value={hooks.revenueCatUrl} />
        <CopyLine label="Hook token" value={hooks.token} />
      </div>

      <form
        aria-label="Inbound hook settings"
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          save();
        }}
      >
        <SecretField
          label="Stripe signing secret"
          configured={hooks.stripeConfigured}
          value={stripe}
          onChange={setStripe}
          onRemove={() => send({ stripeSigningSecret: null }, "Stripe removed: its hook answers 404.")}
          error={errors?.fields.stripeSigningSecret}
          placeholder={`${STRIPE_SECRET_PREFIX}...`}
          disabled={disabled}
          hint={
            <>
              Stripe: Developers → Webhooks → Add endpoint, paste the Stripe URL, select <code>checkout.session.completed</code> and{" "}
              <code>invoice.paid</code>, then copy the endpoint&apos;s signing secret here.
            </>
          }
        />
        <SecretField
          label="RevenueCat Authorization"
          configured={hooks.revenueCatConfigured}
          value={revenueCat}
          onChange={setRevenueCat}
          onRemove={() => send({ revenueCatAuthorization: null }, "RevenueCat removed: its hook answers 404.")}
          error={errors?.fields.revenueCatAuthorization}
          placeholder="Bearer <a long random value>"
          disabled={disabled}
          hint="RevenueCat: Project settings → Integrations → Webhooks, paste the RevenueCat URL, and set the same exact Authorization header value as here."
        />
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-zinc-800">Event names</p>
          <p className="text-xs text-zinc-500">
            The event name reported for a provider&apos;s event type (for example <code>invoice.paid</code> → <code>purchase</code>); an unmapped type is
            reported under its own name.
          </p>
          <KeyValueEditor noun="Event type" rows={rows} onChange={setRows} disabled={disabled} />
          {(rowsError ?? errors?.fields.eventNames) && <p className="text-sm text-red-700">{rowsError ?? errors?.fields.eventNames}</p>}
        </div>
        {errors && !Object.keys(errors.fields).length && <ErrorMessage>{errors.message}</ErrorMessage>}
        {saved && <StatusMessage>{saved}</StatusMessage>}
        <div className="flex flex-wrap items-center gap-3">
          <Button type="submit" pending={update.isPending} disabled={!write.allowed}>
            Save inbound hooks
          </Button>
          {write.reason && <span className="text-sm text-zinc-500">{write.reason}</span>}
        </div>
      </form>

      <div className="space-y-2 border-t border-zinc-100 pt-4">
        {rotate.isError && <ErrorMessage>{toFormErrors(rotate.error).message}</ErrorMessage>}
        <ConfirmButton
          question="Both URLs change and the current ones stop working at once. Rotate?"
          confirmLabel="Rotate now"
          pending={rotate.isPending}
          disabledReason={rotatePermission.reason}
          onConfirm={() => {
            setSaved(null);
            rotate.mutate({ projectId });
          }}
        >
          Rotate hook token
        </ConfirmButton>
      </div>
    </div>
  );
}

/** Project settings: where Stripe and RevenueCat send conversions, their secrets and the event names. */
export function InboundHooksCard({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const hooks = useQuery(trpc.inboundHooks.get.queryOptions({ projectId }));
  return (
    <Card
      title="Inbound conversions"
      description="Point your Stripe or RevenueCat webhooks here and a referral completes when the referee pays, exactly as a track-reward-event call would."
      actions={
        <Link href={`/dashboard/projects/${projectId}/inbound-events`} className="text-sm font-medium whitespace-nowrap text-brand-700 hover:underline">
          Inbound events →
        </Link>
      }
    >
      {hooks.isPending && <p className="text-sm text-zinc-500">Loading inbound hooks…</p>}
      {hooks.isError && <ErrorMessage>{toFormErrors(hooks.error).message}</ErrorMessage>}
      {hooks.data && <SettingsForm projectId={projectId} hooks={hooks.data} />}
    </Card>
  );
}
