import type { Metadata } from "next";
import { ReferralDetail } from "@/components/deliveries/referral-detail";

export const metadata: Metadata = { title: "Referral" };

export default async function ReferralPage({ params }: { params: Promise<{ projectId: string; trackingId: string }> }) {
  const { projectId, trackingId } = await params;
  return <ReferralDetail projectId={projectId} trackingId={decodeURIComponent(trackingId)} />;
}
