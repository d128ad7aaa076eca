"use client";

import { Breakable } from "@/components/ui/breakable";
import Link from "next/link";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { ConfirmButton } from "@/components/ui/confirm-button";
import { DataTable, type Column } from "@/components/ui/data-table";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { deliveriesPath, type Webhook } from "./types";
import { disabledText, successRateText } from "./webhook-health-card";

/** The list's health at a glance (the figures come with the list, in one statement for all webhooks): the webhook's page has the rest. */
function HealthSummary({ webhook: w }: { webhook: Webhook }) {
  const { health } = w;
  return (
    <span className="block min-w-36 leading-tight">
      <span className="block">
        {successRateText(health)}{" "}
        <span className="text-xs text-zinc-500">
          of {health.attempts.toLocaleString("en-GB")} attempt{health.attempts === 1 ? "" : "s"}
        </span>
      </span>
      {health.consecutiveFailures > 0 && (
        <span className="block text-xs text-red-700">
          {health.consecutiveFailures.toLocaleString("en-GB")} failure{health.consecutiveFailures === 1 ? "" : "s"} in a row
        </span>
      )}
      {!w.enabled && <span className="block text-xs text-amber-800">Disabled{disabledText(w)}</span>}
    </span>
  );
}

function Switch({ checked, label, pending, disabled, onChange }: { checked: boolean; label: string; pending: boolean; disabled?: boolean; onChange: (next: boolean) => void }) {
  return (
    <button
      type="button"
      role="switch"
      aria-checked={checked}
      aria-label={label}
      disabled={pending || disabled}
      onClick={() => onChange(!checked)}
      className={`relative inline-flex h-5 w-9 shrink-0 items-center rounded-full transition-colors disabled:opacity-60 ${checked ? "bg-brand-600" : "bg-zinc-300"}`}
    >
      <span className={`inline-block size-4 rounded-full bg-white shadow transition-transform ${checked ? "translate-x-4.5" : "translate-x-0.5"}`} />
    </button>
  );
}

type WebhookListProps = { projectId: string; webhooks: readonly Webhook[]; onEdit: (webhook: Webhook) => void; onDeleted: (id: string) => void };

export function WebhookList({ projectId, webhooks, onEdit, onDeleted }: WebhookListProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const write = usePermission("webhooks.write");
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.webhooks.list.queryKey({ projectId }) });
  const toggle = useMutation(trpc.webhooks.update.mutationOptions({ onSettled: refresh }));
  const remove = useMutation(
    trpc.webhooks.delete.mutationOptions({
      onSuccess: (_result, { webhookId }) => {
        onDeleted(webhookId);
        return refresh();
      },
    }),
  );

  const columns: Column<Webhook>[] = [
    {
      id: "name",
      header: "Name",
      cell: (w) => (
        <Link href={deliveriesPath(projectId, w.id)} className="font-medium text-brand-700 hover:underline">
          {w.name}
        </Link>
      ),
    },
    { id: "url", header: "URL", cell: (w) => <Breakable text={w.url} className="block max-w-md font-mono text-xs text-zinc-700" /> },
    { id: "env", header: "Environment", cell: (w) => <Badge tone={w.environment === "Production" ? "violet" : w.environment === "Sandbox" ? "amber" : "blue"}>{w.environment}</Badge> },
    {
      id: "enabled",
      header: "Enabled",
      cell: (w) => {
        const pending = toggle.isPending && toggle.variables?.webhookId === w.id;
        const shown = pending && toggle.variables?.enabled !== undefined ? toggle.variables.enabled : w.enabled;
        return <Switch checked={shown} pending={pending} disabled={!write.allowed} label={`Enabled: ${w.name}`} onChange={(enabled) => toggle.mutate({ projectId, webhookId: w.id, enabled })} />;
      },
    },
    { id: "health", header: `Health (${webhooks[0]?.health.windowHours ?? 24} h)`, cell: (w) => <HealthSummary webhook={w} /> },
    { id: "secret", header: "Secret", cell: (w) => <code className="font-mono text-xs text-zinc-600">{w.secretHint}</code> },
    {
      id: "actions",
      header: "Actions",
      align: "right",
      cell: (w) => (
        <div className="flex items-center justify-end gap-1">
          <Link href={deliveriesPath(projectId, w.id)} className={buttonClasses("ghost", "sm")} aria-label={`Deliveries of ${w.name}`}>
            Deliveries
          </Link>
          {write.allowed && (
          <>
          <Button variant="ghost" size="sm" onClick={() => onEdit(w)} aria-label={`Edit ${w.name}`}>
            Edit
          </Button>
          <ConfirmButton
            size="sm"
            variant="ghost"
            aria-label={`Delete ${w.name}`}
            question="Its delivery log goes too."
            confirmLabel="Delete webhook"
            pending={remove.isPending && remove.variables?.webhookId === w.id}
            onConfirm={() => remove.mutate({ projectId, webhookId: w.id })}
          >
            Delete
          </ConfirmButton>
          </>
          )}
        </div>
      ),
    },
  ];

  return (
    <div className="space-y-3">
      <PermissionNote reason={write.reason} />
      {toggle.isError && <ErrorMessage>{toFormErrors(toggle.error).message}</ErrorMessage>}
      {remove.isError && <ErrorMessage>{toFormErrors(remove.error).message}</ErrorMessage>}
      <DataTable caption="Webhooks" columns={columns} rows={webhooks} rowKey={(w) => w.id} empty="No webhooks yet. Create one below to have each granted reward sent to your backend; send a test event to check it." />
    </div>
  );
}
