import type { Metadata } from "next";
import { Suspense } from "react";
import { DeliverySearch } from "@/components/deliveries/delivery-search";

export const metadata: Metadata = { title: "Deliveries" };

export default async function DeliveriesPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <Suspense>
      <DeliverySearch projectId={projectId} />
    </Suspense>
  );
}
