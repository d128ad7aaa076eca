import type { Metadata } from "next";
import { Suspense } from "react";
import { DeliveriesView } from "@/components/webhooks/deliveries-view";

export const metadata: Metadata = { title: "Webhook deliveries" };

export default async function WebhookDeliveriesPage({ params }: { params: Promise<{ projectId: string; webhookId: string }> }) {
  const { projectId, webhookId } = await params;
  return (
    <Suspense>
      <DeliveriesView projectId={projectId} webhookId={decodeURIComponent(webhookId)} />
    </Suspense>
  );
}
