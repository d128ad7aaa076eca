"use client";

import Link from "next/link";
import { useQuery } from "@tanstack/react-query";
import { ErrorMessage } from "@/components/ui/alert";
import { toFormErrors } from "@/lib/errors";
import { useTRPC } from "@/lib/trpc";
import { InboundHooksCard } from "@/components/inbound-hooks/inbound-hooks-card";
import { AppIconCard } from "./app-icon-card";
import { DeleteProjectCard } from "./delete-project-card";
import { EditProjectForm } from "./edit-project-form";
import { ProjectDetailsCard } from "./project-details-card";
import { PublishableKeyCard } from "./publishable-key-card";
import { RotateSecretCard } from "./rotate-secret-card";

export function ProjectSettings({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const project = useQuery(trpc.projects.get.queryOptions({ projectId }));
  if (project.isPending) return <p className="text-sm text-zinc-500">Loading project…</p>;
  if (project.isError) {
    const notFound = project.error.data?.code === "NOT_FOUND";
    return (
      <div className="space-y-3">
        <ErrorMessage>
          {notFound ? "This project does not exist, or it belongs to another organisation." : toFormErrors(project.error).message}
        </ErrorMessage>
        <Link href="/dashboard" className="text-sm font-medium text-brand-700 hover:underline">
          Back to projects
        </Link>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <ProjectDetailsCard project={project.data} />
      <EditProjectForm project={project.data} />
      <PublishableKeyCard project={project.data} />
      {project.data.appType === "Mobile" && <AppIconCard project={project.data} />}
      <RotateSecretCard project={project.data} />
      <InboundHooksCard projectId={project.data.uniqueId} />
      <DeleteProjectCard project={project.data} />
    </div>
  );
}
