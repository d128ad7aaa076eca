"use client";

import Link from "next/link";
import { Suspense, useState } from "react";
import { PermissionNote, usePermission } from "@/components/dashboard/permissions";
import { buttonClasses } from "@/components/ui/button";
import { Card } from "@/components/ui/card";
import { SecretOnce } from "@/components/ui/secret-once";
import { CreateProjectForm, type CreatedProject } from "./create-project-form";
import { OrganizationOverview } from "@/components/overview/organization-overview";
import { ProjectList } from "./project-list";

export function ProjectsOverview() {
  const [created, setCreated] = useState<CreatedProject | null>(null);
  const create = usePermission("projects.create");
  return (
    <div className="space-y-6">
      {created && (
        <SecretOnce label="Project secret" secret={created.projectSecret} warning={created.warning} onDismiss={() => setCreated(null)}>
          <Link href={`/dashboard/projects/${created.uniqueId}`} className={buttonClasses("primary", "sm")}>
            Open {created.name}
          </Link>
        </SecretOnce>
      )}
      <Suspense>
        <OrganizationOverview />
      </Suspense>
      <Card title="Your projects">
        <ProjectList />
      </Card>
      <Card id="create-project" title="Create a project" description="A project is one web or mobile app with its own referral campaign.">
        <div className="max-w-xl">{create.allowed ? <CreateProjectForm onCreated={setCreated} /> : <PermissionNote reason={create.reason} />}</div>
      </Card>
    </div>
  );
}
