import type { Metadata } from "next";
import { OrganizationOverview } from "@/components/organization/organization-overview";
import { PageHeader } from "@/components/ui/card";

export const metadata: Metadata = { title: "Organisation" };

export default function OrganizationPage() {
  return (
    <>
      <PageHeader title="Organisation" description="Who can manage this organisation's projects and keys." />
      <OrganizationOverview />
    </>
  );
}
