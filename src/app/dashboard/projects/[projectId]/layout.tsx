import type { ReactNode } from "react";
import { ProjectHeader } from "@/components/projects/project-header";
import { ProjectTabs, type ProjectTab } from "@/components/projects/project-tabs";

/* Each section is one entry here, next to its page folder. */
const TABS: readonly ProjectTab[] = [
  { label: "Overview", segment: "" },
  { label: "App users", segment: "users" },
  { label: "Referrals", segment: "referrals" },
  { label: "Leaderboard", segment: "leaderboard" },
  { label: "Reviews", segment: "reviews" },
  { label: "Campaign", segment: "campaign" },
  { label: "Webhooks", segment: "webhooks" },
  { label: "Deliveries", segment: "deliveries" },
  { label: "Inbound events", segment: "inbound-events" },
  { label: "Activity", segment: "activity" },
  { label: "Settings", segment: "settings" },
];

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
