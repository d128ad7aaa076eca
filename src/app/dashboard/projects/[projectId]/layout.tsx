import type { ReactNode } from "react";
import { ProjectHeader } from "@/components/projects/project-header";
import { ProjectTabs, type ProjectTab } from "@/components/projects/project-tabs";

/*
 * Each later section (App users, Referrals, Campaign, Webhooks, Activity) adds one entry here,
 * e.g. { label: "Webhooks", segment: "webhooks" }, next to its page folder.
 */
const TABS: readonly ProjectTab[] = [{ label: "Settings", segment: "" }];

type Props = { children: ReactNode; params: Promise<{ projectId: string }> };

export default async function ProjectLayout({ children, params }: Props) {
  const { projectId } = await params;
  return (
    <>
      <ProjectHeader projectId={projectId} />
      <ProjectTabs projectId={projectId} tabs={TABS} />
      {children}
    </>
  );
}
