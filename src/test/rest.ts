import { expect } from "vitest";
import type { Services } from "@/server/api/trpc/context";
import type { ApiKeyRole } from "@/generated/prisma/enums";
import type { Db } from "@/server/db/client";
import { handleRestRequest } from "@/server/api/rest/handle-rest-request";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { randomAlphanumeric } from "@/server/domain/tokens";
import { testServices } from "./config";

export type RestCall = {
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body` (bytes for uploads). */
  rawBody?: string | Uint8Array;
  headers?: Record<string, string>;
  apiKey?: string | null;
};

/**
 * Calls the REST surface exactly as the Next route does (the same handler, a real Request and
 * Response), against the test's own database, with testServices() unless `overrides` say otherwise.
 */
export function restClient(db: Db, defaultKey?: string, overrides: Partial<Services> = {}) {
  const services = testServices(db, overrides);
  return async function call(method: string, path: string, opts: RestCall = {}) {
    const headers = new Headers(opts.headers);
    const key = opts.apiKey === undefined ? defaultKey : opts.apiKey;
    if (key) headers.set("authorization", `Bearer ${key}`);
    const body = requestBody(opts, headers);
    const url = path.startsWith("/api/") ? path : `/api/v1/public${path}`;
    return readAnswer(await handleRestRequest(new Request(`http://localhost${url}`, { method, headers, body }), services));
  };
}

/** `rawBody` as it is, else `body` as JSON (with its Content-Type unless the call set one). */
export function requestBody(opts: { body?: unknown; rawBody?: string | Uint8Array }, headers: Headers): BodyInit | undefined {
  if (opts.rawBody !== undefined) return opts.rawBody as BodyInit;
  if (opts.body === undefined) return undefined;
  if (!headers.has("content-type")) headers.set("content-type", "application/json");
  return JSON.stringify(opts.body);
}

/** A handler's Response as tests read it: status, headers, text, and the JSON when the text is JSON. */
export async function readAnswer(res: Response) {
  const text = await res.text();
  let json: any = undefined; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** The `call` function restClient returns, and what a call resolves to. */
export type RestClient = ReturnType<typeof restClient>;
export type RestResponse = Awaited<ReturnType<RestClient>>;

/** A problem+json answer with this status whose `errors` name each field (and rule, when given). */
export function expectProblem(res: RestResponse, status: number, fields: (string | [string, string])[] = []) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(res.json).toMatchObject({ status, type: expect.stringMatching(/^urn:referloop:problem:/), title: expect.any(String) });
  for (const f of fields) {
    const [field, rule] = Array.isArray(f) ? f : [f, undefined];
    expect(res.json.errors, res.text).toContainEqual(expect.objectContaining({ field, ...(rule ? { rule } : {}) }));
    expect(res.json.detail).toContain(field);
  }
}

/** A fresh organisation and an API key for it (an owner key unless `role` says otherwise). */
export async function createOrgWithApiKey(db: Db, role: ApiKeyRole = "owner") {
  const org = await db.organization.create({
    data: { name: "Org " + randomAlphanumeric(4), clientId: "cl_" + randomAlphanumeric(16) },
  });
  const key = await createApiKey(db, org.id, { name: "test", role }, null);
  return { org, apiKey: key.key, apiKeyId: key.id };
}

/** A REST client that calls as a fresh organisation of its own (with its own API key). */
export async function restClientForNewOrg(db: Db, overrides: Partial<Services> = {}) {
  return restClient(db, (await createOrgWithApiKey(db)).apiKey, overrides);
}

/** A project created over REST (with a redirect link unless given null); its uniqueId. */
export async function createProjectOverRest(call: RestClient, name: string, referralRedirectLink: string | null = "https://shop.example.com/join") {
  const res = await call("POST", "/projects", { body: { name, ...(referralRedirectLink ? { referralRedirectLink } : {}) } });
  expect(res.status, res.text).toBe(201);
  return res.json.uniqueId as string;
}

export type RestAppUser = {
  uniqueId: string;
  clientProvidedId: string;
  referralCode: string;
  attributes: Record<string, string>;
  totalReferralsGiven: number;
  totalReferralsReceived: number;
  successfulReferrals: number;
  referredBy: string | null;
};

/** An app user created over REST, in PascalCase as the spec writes the body. */
export async function createAppUserOverRest(call: RestClient, projectId: string, clientProvidedId: string, attributes?: Record<string, string>) {
  const res = await call("POST", `/projects/${projectId}/users`, {
    body: { ClientProvidedId: clientProvidedId, ...(attributes ? { Attributes: attributes } : {}) },
  });
  expect(res.status, res.text).toBe(201);
  return res.json as RestAppUser;
}

/** A tracked arrival over REST: the referee comes through the referrer's code. */
export async function trackOverRest(call: RestClient, projectId: string, referrer: { referralCode: string }, refereeId: string, rewardEventName?: string) {
  const res = await call("POST", `/projects/${projectId}/referrals/track`, {
    body: { ReferralCode: referrer.referralCode, RefereeId: refereeId, ...(rewardEventName ? { RewardEventName: rewardEventName } : {}) },
  });
  expect(res.status, res.text).toBe(200);
  return { trackingId: res.json.referralTrackingId as string, track: res };
}
