import type { Metadata } from "next";
import { Suspense } from "react";
import { AppUsersOverview } from "@/components/app-users/app-users-overview";

export const metadata: Metadata = { title: "App users" };

export default async function AppUsersPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <Suspense>
      <AppUsersOverview projectId={projectId} />
    </Suspense>
  );
}
