import type { Metadata } from "next";
import { CampaignForm } from "@/components/campaign/campaign-form";
import { PortalForm } from "@/components/campaign/portal-form";
import { serverCaller } from "@/server/dashboard/caller";

export const metadata: Metadata = { title: "Campaign" };

export default async function CampaignPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  // The setup snippet's key and whether userHash is required. A project that is not found shows the
  // form's own error; the snippet then keeps its placeholder.
  const project = await (await serverCaller()).projects.get({ projectId }).catch(() => null);
  return (
    <div className="space-y-6">
      <CampaignForm projectId={projectId} publishableKey={project?.publishableKey} identityVerification={project?.identityVerification} appType={project?.appType} />
      <PortalForm projectId={projectId} />
    </div>
  );
}
