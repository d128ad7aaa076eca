import type { Metadata } from "next";
import { Suspense } from "react";
import { ActivityFeed } from "@/components/activity/activity-feed";

export const metadata: Metadata = { title: "Activity" };

export default async function ActivityPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <Suspense>
      <ActivityFeed projectId={projectId} />
    </Suspense>
  );
}
