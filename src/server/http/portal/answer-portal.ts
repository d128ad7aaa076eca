import { randomBytes } from "node:crypto";
import { MAX_PAGE_SIZE } from "@/lib/schemas/common";
import type { Config } from "@/server/config";
import type { Db } from "@/server/db/client";
import { getReferralSummary } from "@/server/domain/portal/get-referral-summary";
import { openPortalSession, PORTAL_PREFIX, PortalRefusal } from "@/server/domain/portal/portal-sessions";
import { answer, type ApiAnswer, type ApiRequest } from "@/server/http/api-exchange";
import { problemOf } from "@/server/http/problem";
import { publicOrigin } from "@/server/http/public-origin";
import { frameSources, portalPageCsp, renderPortalPage, renderPortalRefusal } from "./render-portal-page";

export { PORTAL_PREFIX };

export type PortalServices = { db: Db; config: Config };

const ROUTE = `${PORTAL_PREFIX}{token}`;
const PAGE_SIZE = 20;

/** Nothing of it is cached, indexed or sent on as a referrer: the path is a credential. */
const PRIVATE = { "cache-control": "no-store", "referrer-policy": "no-referrer", "x-robots-tag": "noindex" };

const wantsJson = (request: ApiRequest) => /\bapplication\/(?:problem\+)?json\b/.test(request.headers.get("accept") ?? "") && !/\btext\/html\b/.test(request.headers.get("accept") ?? "");

/**
 * `GET /portal/{token}[?page=N]`: the referrer's own page of a portal session (render-portal-page.ts),
 * or with `Accept: application/json` the same summary as JSON. A session that opens nothing (expired,
 * tampered, another project's, revoked by a secret rotation, its user erased) is a 401: a plain page
 * saying so, or a problem, with nothing about the user. Framed only by the project's allowed origins.
 */
export async function answerPortal(request: ApiRequest, services: PortalServices, now = new Date()): Promise<ApiAnswer> {
  const url = new URL(request.url);
  if (request.method !== "GET" && request.method !== "HEAD") {
    return { ...answer(405, { allow: "GET, HEAD", "content-type": "text/plain; charset=utf-8" }, "Method Not Allowed\n"), route: ROUTE };
  }
  const token = url.pathname.slice(PORTAL_PREFIX.length);
  const json = wantsJson(request);
  const nonce = randomBytes(16).toString("base64");
  let session;
  try {
    session = await openPortalSession(services.db, services.config, token, now);
  } catch (error) {
    if (!(error instanceof PortalRefusal)) throw error;
    if (json) return { ...answer(401, { ...PRIVATE, "content-type": "application/problem+json" }, JSON.stringify(problemOf("unauthorized", error.message))), route: ROUTE };
    return {
      ...answer(401, { ...PRIVATE, "content-type": "text/html; charset=utf-8", "content-security-policy": portalPageCsp(nonce, []) }, renderPortalRefusal(error.reason, nonce)),
      route: ROUTE,
    };
  }
  const page = Number(url.searchParams.get("page") ?? "1");
  const summary = await getReferralSummary(
    services.db,
    { project: session.project, appUserId: session.appUserId, publicOrigin: publicOrigin(services.config, request.headers) },
    { page: Number.isSafeInteger(page) && page >= 1 ? page : 1, pageSize: Math.min(PAGE_SIZE, MAX_PAGE_SIZE) },
  );
  if (json) return { ...answer(200, { ...PRIVATE, "content-type": "application/json" }, JSON.stringify(summary)), route: ROUTE };
  const html = renderPortalPage({ summary, pagePath: url.pathname, nonce });
  const csp = portalPageCsp(nonce, frameSources(session.project.allowedOrigins));
  return { ...answer(200, { ...PRIVATE, "content-type": "text/html; charset=utf-8", "content-security-policy": csp }, html), route: ROUTE };
}
