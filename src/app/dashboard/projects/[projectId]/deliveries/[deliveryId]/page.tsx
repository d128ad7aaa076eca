import type { Metadata } from "next";
import { DeliveryDetail } from "@/components/deliveries/delivery-detail";

export const metadata: Metadata = { title: "Delivery" };

export default async function DeliveryPage({ params }: { params: Promise<{ projectId: string; deliveryId: string }> }) {
  const { projectId, deliveryId } = await params;
  return <DeliveryDetail projectId={projectId} deliveryId={decodeURIComponent(deliveryId)} />;
}
