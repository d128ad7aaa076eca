import type { Metadata } from "next";
import { Suspense } from "react";
import { RewardEventsOverview } from "@/components/activity/reward-events-overview";

export const metadata: Metadata = { title: "Reward events" };

export default async function RewardEventsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <Suspense>
      <RewardEventsOverview projectId={projectId} />
    </Suspense>
  );
}
