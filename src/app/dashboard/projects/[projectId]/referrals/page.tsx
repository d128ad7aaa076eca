import type { Metadata } from "next";
import { Suspense } from "react";
import { ReferralsOverview } from "@/components/referrals/referrals-overview";

export const metadata: Metadata = { title: "Referrals" };

export default async function ReferralsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <Suspense>
      <ReferralsOverview projectId={projectId} />
    </Suspense>
  );
}
