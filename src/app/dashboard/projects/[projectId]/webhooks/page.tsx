import type { Metadata } from "next";
import { WebhooksOverview } from "@/components/webhooks/webhooks-overview";

export const metadata: Metadata = { title: "Webhooks" };

export default async function WebhooksPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <WebhooksOverview projectId={projectId} />;
}
