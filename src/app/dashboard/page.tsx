import type { Metadata } from "next";
import { PageHeader } from "@/components/ui/card";
import { ProjectsOverview } from "@/components/projects/projects-overview";

export const metadata: Metadata = { title: "Projects" };

export default function ProjectsPage() {
  return (
    <>
      <PageHeader title="Projects" description="Each project has its own secret, campaign and referral settings." />
      <ProjectsOverview />
    </>
  );
}
