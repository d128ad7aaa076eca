import type { ReactNode } from "react";
import { Card } from "@/components/ui/card";
import { CopyButton } from "@/components/ui/copy-button";
import { formatDateTime } from "@/lib/format";
import type { Project } from "@/lib/trpc-types";

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="grid gap-1 py-2.5 sm:grid-cols-[12rem_1fr] sm:items-center sm:gap-4">
      <dt className="text-sm text-zinc-500">{label}</dt>
      <dd className="flex min-w-0 items-center gap-2 text-sm text-zinc-900">{children}</dd>
    </div>
  );
}

function Identifier({ value, label }: { value: string; label: string }) {
  return (
    <>
      <code className="truncate rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{value}</code>
      <CopyButton value={value} label={label} />
    </>
  );
}

export function ProjectDetailsCard({ project }: { project: Project }) {
  return (
    <Card title="Details" description="Identifiers your app and backend use to talk to the service.">
      <dl className="divide-y divide-zinc-100">
        <Row label="Project ID (uniqueId)">
          <Identifier value={project.uniqueId} label="project ID" />
        </Row>
        <Row label="Campaign ID">{project.campaignId ? <Identifier value={project.campaignId} label="campaign ID" /> : "—"}</Row>
        <Row label="App type">{project.appType}</Row>
        <Row label="Project secret">
          <code className="rounded bg-zinc-100 px-1.5 py-0.5 font-mono text-xs">{project.projectSecretHint}</code>
          <span className="text-xs text-zinc-500">Only the start is kept visible; rotate to issue a new one.</span>
        </Row>
        <Row label="Created">{formatDateTime(project.createdAt)}</Row>
        <Row label="Last updated">{formatDateTime(project.updatedAt)}</Row>
      </dl>
    </Card>
  );
}
