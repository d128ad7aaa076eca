"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage, StatusMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { SecretOnce } from "@/components/ui/secret-once";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import type { CreatedWebhook, Webhook } from "./types";
import { WebhookForm } from "./webhook-form";
import { WebhookList } from "./webhook-list";
import { RotateWebhookSecret } from "./rotate-webhook-secret";

export function WebhooksOverview({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const webhooks = useQuery(trpc.webhooks.list.queryOptions({ projectId }));
  const campaign = useQuery(trpc.campaigns.get.queryOptions({ projectId }));
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [editing, setEditing] = useState<Webhook | null>(null);
  const [savedName, setSavedName] = useState<string | null>(null);
  const error = webhooks.error ?? campaign.error;
  const write = usePermission("webhooks.write");

  return (
    <div className="space-y-6">
      {error && <ErrorMessage>{toFormErrors(error).message}</ErrorMessage>}
      {created && (
        <SecretOnce label="Webhook secret" secret={created.secret} warning={created.warning} onDismiss={() => setCreated(null)}>
          <span className="text-sm text-amber-900">
            Webhook <strong>{created.name}</strong> created.
          </span>
        </SecretOnce>
      )}
      <Card title="Webhooks" description="Each reward is POSTed to every enabled webhook whose environment matches. Open one to see its deliveries.">
        {webhooks.isPending && <p className="text-sm text-zinc-500">Loading webhooks…</p>}
        {webhooks.data && (
          <WebhookList
            projectId={projectId}
            webhooks={webhooks.data}
            onEdit={(w) => {
              setEditing(w);
              setSavedName(null);
            }}
            onDeleted={(id) => {
              setCreated((c) => (c?.id === id ? null : c));
              setEditing((e) => (e?.id === id ? null : e));
            }}
          />
        )}
        {savedName && (
          <div className="mt-3">
            <StatusMessage>Saved {savedName}.</StatusMessage>
          </div>
        )}
      </Card>
      {editing && (
        <Card title={`Edit ${editing.name}`}>
          <WebhookForm
            key={editing.id}
            mode="edit"
            projectId={projectId}
            webhook={editing}
            onSaved={(saved) => {
              setEditing(null);
              setSavedName(saved.name);
            }}
            onCancel={() => setEditing(null)}
          />
          <RotateWebhookSecret projectId={projectId} webhook={webhooks.data?.find((w) => w.id === editing.id) ?? editing} />
        </Card>
      )}
      <Card title="New webhook">
        {!write.allowed ? (
          <PermissionNote reason={write.reason} />
        ) : campaign.data ? (
          <WebhookForm mode="create" projectId={projectId} campaignId={campaign.data.campaignId} onCreated={setCreated} />
        ) : (
          <p className="text-sm text-zinc-500">Loading…</p>
        )}
      </Card>
    </div>
  );
}
