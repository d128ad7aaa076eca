import type { Metadata } from "next";
import { AppUserDetail } from "@/components/app-users/app-user-detail";

export const metadata: Metadata = { title: "App user" };

export default async function AppUserPage({ params }: { params: Promise<{ projectId: string; uniqueId: string }> }) {
  const { projectId, uniqueId } = await params;
  return <AppUserDetail projectId={projectId} uniqueId={decodeURIComponent(uniqueId)} />;
}
