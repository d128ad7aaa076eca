import { appServices } from "@/server/api/trpc/context";
import { serveLandingPage } from "@/server/http/landing/serve-landing-page";

/** A Mobile project's hosted referral landing page: /r/{projectId}/{code}[?rewardEventName=...]. */
export async function GET(request: Request, { params }: { params: Promise<{ projectId: string; code: string }> }) {
  return serveLandingPage(request, await appServices(), await params);
}
