import { defaultRevokeOn } from "@/lib/schemas/reward-rules";
import { describe, expect, it } from "vitest";
import { EXAMPLE } from "@/lib/schemas/examples";
import { buildOpenApiDocument } from "@/server/api/openapi/document";
import { documentChecker } from "./openapi-responses";

/* The checker the client and fuzz tests rely on: it must catch each way an answer can contradict the document. */
const check = documentChecker(buildOpenApiDocument("http://localhost"));
const json = (extra: Record<string, string> = {}) => new Headers({ "content-type": "application/json; charset=utf-8", "x-request-id": "r-1", ...extra });
const problemHeaders = () => json({ "content-type": "application/problem+json; charset=utf-8" });
const campaign = {
  campaignId: EXAMPLE.campaignId,
  projectId: EXAMPLE.projectId,
  referrerExperience: {
    triggerButton: { buttonType: "floating", buttonPosition: "bottom-right" },
    modal: { componentType: "modal", modalTitle: "t", modalDescription: "d" },
    theme: { themeColor: "#000000", backgroundColor: "#FFFFFF", tintColor: "#000000", tintAlpha: 0.4 },
  },
  newUserExperience: { promoText: "", promoPosition: "top-center", referrerNameAttribute: "name" },
  attributionWindowDays: 30,
  matchWindowMinutes: 120,
  attributionModel: "first",
  rewardRules: { maxRewardsPerReferrer: {}, disposableEmail: "off", sameDevice: "off", holdDays: 0 },
  milestones: [],
  portal: { sections: { totals: true, friends: true, rewards: true, milestones: true }, friendNameAttribute: null },
  revokeOn: defaultRevokeOn,
  updatedAt: EXAMPLE.at,
};
const url = `http://localhost/api/v1/public/projects/${EXAMPLE.projectId}/campaign`;
const get = (status: number, body: unknown, headers = json()) => check({ method: "GET", url, status, headers, text: JSON.stringify(body) });

describe("documentChecker", () => {
  it("accepts an answer the document describes", () => {
    expect(get(200, campaign)).toEqual([]);
    expect(get(404, { type: "urn:referloop:problem:not-found", title: "Resource not found.", status: 404, detail: "x" }, problemHeaders())).toEqual([]);
  });

  it("reports a body that does not validate, an undeclared status, a 5xx, a non-problem error and a missing request id", () => {
    expect(get(200, { ...campaign, attributionModel: "middle" })[0]).toMatch(/attributionModel/);
    expect(get(200, { ...campaign, updatedAt: "yesterday" })[0]).toMatch(/date-time/);
    expect(get(409, { type: "urn:referloop:problem:conflict", title: "t", status: 409, detail: "x" }, problemHeaders())[0]).toMatch(/status not declared/);
    expect(get(500, { type: "urn:referloop:problem:internal", title: "t", status: 500, detail: "x" }, problemHeaders())).toContain(`GET /api/v1/public/projects/${EXAMPLE.projectId}/campaign 500: a 5xx answer`);
    expect(get(404, { message: "nope" }).join()).toMatch(/not problem\+json/);
    expect(get(404, { type: "urn:referloop:problem:made-up", title: "t", status: 404, detail: "x" }, problemHeaders())[0]).toMatch(/must be equal to constant|oneOf/);
    expect(get(200, campaign, new Headers({ "content-type": "application/json" }))[0]).toMatch(/X-Request-Id/);
  });
});
