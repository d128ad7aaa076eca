import type { Metadata } from "next";
import { Leaderboard } from "@/components/leaderboard/leaderboard";

export const metadata: Metadata = { title: "Leaderboard" };

export default async function LeaderboardPage({ params }: { params: Promise<{ projectId: string }> }) {
  const { projectId } = await params;
  return <Leaderboard projectId={projectId} />;
}
