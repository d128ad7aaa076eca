import type { Metadata } from "next";
import { Card, PageHeader } from "@/components/ui/card";
import { CreateOrganizationForm } from "@/components/organization/create-organization-form";
import { OnboardingChecklist } from "@/components/onboarding/onboarding-checklist";
import { ProjectsOverview } from "@/components/projects/projects-overview";
import { serverCaller } from "@/server/dashboard/caller";

export const metadata: Metadata = { title: "Projects" };

export default async function ProjectsPage() {
  const me = await (await serverCaller()).accounts.me();
  // Someone who joined by invitation and was removed since, or left: no organisation to show.
  if (!me.activeOrganizationId) {
    return (
      <>
        <PageHeader title="Welcome" description="You are not a member of any organisation yet." />
        <Card title="Create an organisation" description="A workspace with its own projects and API keys; you become its owner. To join someone else's, open the invitation they sent you.">
          <CreateOrganizationForm />
        </Card>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Projects" description="Each project has its own secret, campaign and referral settings." />
      <OnboardingChecklist />
      <ProjectsOverview />
    </>
  );
}
