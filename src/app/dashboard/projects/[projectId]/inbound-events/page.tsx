import type { Metadata } from "next";
import { InboundEventsOverview } from "@/components/inbound-hooks/inbound-events-overview";

export const metadata: Metadata = { title: "Inbound events" };

export default async function InboundEventsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <InboundEventsOverview projectId={projectId} />;
}
