import type { Metadata } from "next";
import { CampaignForm } from "@/components/campaign/campaign-form";

export const metadata: Metadata = { title: "Campaign" };

export default async function CampaignPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <CampaignForm projectId={projectId} />;
}
