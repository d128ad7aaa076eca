"use client";

import { useQuery } from "@tanstack/react-query";
import { useState } from "react";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { ErrorMessage } from "@/components/ui/alert";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { SecretOnce } from "@/components/ui/secret-once";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { ApiKeyList } from "./api-key-list";
import { CreateApiKeyForm, type CreatedApiKey } from "./create-api-key-form";

function ClientIdentifier({ label, value }: { label: string; value: string }) {
  return (
    // min-w-0: on a phone the id is cut short (truncate) instead of widening the page.
    <div className="min-w-0">
      <dt className="text-xs font-medium uppercase tracking-wide text-zinc-500">{label}</dt>
      <dd className="mt-1 flex items-center gap-2">
        <code className="min-w-0 truncate rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-sm">{value}</code>
        <CopyButton value={value} label={label} />
      </dd>
    </div>
  );
}

export function ApiKeysOverview() {
  const trpc = useTRPC();
  const list = useQuery(trpc.apiKeys.list.queryOptions());
  const me = useQuery(trpc.accounts.me.queryOptions());
  const create = usePermission("apiKeys.create");
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  // A deleted key's one-time panel would only invite someone to store a dead key.
  const forgetShownKey = (id: string) => setCreated((shown) => (shown?.id === id ? null : shown));
  return (
    <div className="space-y-6">
      {list.isError && <ErrorMessage>{toFormErrors(list.error).message}</ErrorMessage>}
      {list.data && (
        <Card title="Client credentials" description="Identify your organisation to the service.">
          <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <ClientIdentifier label="Client ID" value={list.data.clientId} />
            <ClientIdentifier label="Client unique ID" value={list.data.clientUniqueId} />
          </dl>
        </Card>
      )}
      {created && <SecretOnce label="API key" secret={created.key} warning={created.warning} onDismiss={() => setCreated(null)} />}
      <Card title="API keys" description="Backends call the REST API with Authorization: Bearer <key>.">
        {list.isPending && <p className="text-sm text-zinc-500">Loading API keys…</p>}
        {list.data && me.data && <ApiKeyList keys={list.data.keys} currentUserId={me.data.userId} onDeleted={forgetShownKey} />}
      </Card>
      <Card title="Create an API key" description="A key acts with the role you choose, never more than your own; removing you from the organisation revokes the keys you created.">
        {create.allowed && me.data ? <CreateApiKeyForm role={me.data.role} onCreated={setCreated} /> : <PermissionNote reason={create.reason} />}
      </Card>
    </div>
  );
}
