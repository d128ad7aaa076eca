import type { Metadata } from "next";
import { Suspense } from "react";
import { ReviewQueue } from "@/components/reviews/review-queue";

export const metadata: Metadata = { title: "Reviews" };

export default async function ReviewsPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return (
    <Suspense>
      <ReviewQueue projectId={projectId} />
    </Suspense>
  );
}
