import { appServices } from "@/server/api/trpc/context";
import { recordLandingClick } from "@/server/http/landing/record-landing-click";

/** The landing page's click beacon. */
export async function POST(request: Request, { params }: { params: Promise<{ projectId: string; code: string }> }) {
  return recordLandingClick(request, await appServices(), await params);
}
