import { answer, fromResponse, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { recordLandingClick } from "./record-landing-click";
import { notFoundPage, serveLandingPage, type LandingServices } from "./serve-landing-page";

/** The front door's route for the hosted landing pages (everything under it is answered here). */
export const LANDING_PREFIX = "/r/";

const PAGE = /^\/r\/([^/]+)\/([^/]+)(\/click)?$/;

const decoded = (segment: string) => {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
};

/**
 * `/r/{projectId}/{code}`: GET (and HEAD) the page; `/r/{projectId}/{code}/click`: POST the click
 * beacon. Served by the front door, not Next.js, so that the click's body is read from the socket
 * only as far as it may go (record-landing-click.ts). Any other path is the "not found" page; another
 * method a 405 with `Allow`.
 */
export async function answerLanding(request: ApiRequest, services: LandingServices): Promise<ApiAnswer> {
  const url = new URL(request.url);
  const match = PAGE.exec(url.pathname);
  const projectId = match && decoded(match[1]!);
  const code = match && decoded(match[2]!);
  if (!match || projectId === null || code === null) return { ...(await fromResponse(notFoundPage())), route: `${LANDING_PREFIX}*` };
  if (match[3]) {
    const route = "/r/{projectId}/{code}/click";
    if (request.method !== "POST") return { ...answer(405, { allow: "POST", "content-type": "text/plain; charset=utf-8" }, "Method Not Allowed\n"), route };
    return { ...(await recordLandingClick(request, services, { projectId, code })), route };
  }
  const route = "/r/{projectId}/{code}";
  if (request.method !== "GET" && request.method !== "HEAD") return { ...answer(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }, "Method Not Allowed\n"), route };
  return { ...(await fromResponse(await serveLandingPage(request, services, { projectId, code }))), route };
}
