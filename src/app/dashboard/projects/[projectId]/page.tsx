import type { Metadata } from "next";
import { Suspense } from "react";
import { OnboardingChecklist } from "@/components/onboarding/onboarding-checklist";
import { ProjectOverview } from "@/components/overview/project-overview";

export const metadata: Metadata = { title: "Project overview" };

/** The page a project opens on (its settings are at ./settings). */
export default async function ProjectOverviewPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <Suspense>
      <OnboardingChecklist projectId={projectId} />
      <ProjectOverview projectId={projectId} />
    </Suspense>
  );
}
