import { expect } from "vitest";
import { PROJECT_KEY_HEADER, PROJECT_SECRET_HEADER } from "@/lib/schemas/sdk";
import type { Services } from "@/server/api/trpc/context";
import { handleSdkRequest } from "@/server/api/rest/handle-sdk-request";
import type { Db } from "@/server/db/client";
import { testServices } from "./config";
import { readAnswer, requestBody, type RestClient } from "./rest";

export type SdkCall = {
  body?: unknown;
  /** Sent as-is instead of JSON-encoding `body`. */
  rawBody?: string;
  /** `X-Service-ProjectSecret` (init-app-user, track-referral, new-user-experience). */
  key?: string;
  /** `x-project-secret-key` (track-reward-event). */
  secret?: string;
  /** The browser's `Origin`. */
  origin?: string;
  headers?: Record<string, string>;
  method?: string;
};

/**
 * Calls a client-library endpoint exactly as the Next route does (handleSdkRequest, a real Request
 * and Response), against the test's own database.
 */
export function sdkClient(db: Db, overrides: Partial<Services> = {}) {
  const services = testServices(db, overrides);
  return async function call(endpoint: string, opts: SdkCall = {}) {
    const headers = new Headers(opts.headers);
    if (opts.key !== undefined) headers.set(PROJECT_KEY_HEADER, opts.key);
    if (opts.secret !== undefined) headers.set(PROJECT_SECRET_HEADER, opts.secret);
    if (opts.origin !== undefined) headers.set("origin", opts.origin);
    const body = requestBody(opts, headers);
    return readAnswer(await handleSdkRequest(new Request(`http://localhost/api/v1/sdk/${endpoint}`, { method: opts.method ?? "POST", headers, body }), services));
  };
}

export type SdkClient = ReturnType<typeof sdkClient>;

/** A project created over REST with its keys (the `sk_` secret is in the create response once). */
export async function createSdkProject(
  call: RestClient,
  body: { name?: string; allowedOrigins?: string[]; identityVerification?: boolean; referralRedirectLink?: string | null } = {},
) {
  const { name = "SDK project", referralRedirectLink = "https://shop.example.com/join", ...rest } = body;
  const res = await call("POST", "/projects", { body: { name, ...(referralRedirectLink ? { referralRedirectLink } : {}), ...rest } });
  expect(res.status, res.text).toBe(201);
  const { uniqueId: projectId, publishableKey, projectSecret: secret, campaignId } = res.json as Record<string, string>;
  expect(publishableKey).toMatch(/^pk_[A-Za-z0-9_-]{43}$/);
  return { projectId: projectId!, publishableKey: publishableKey!, secret: secret!, campaignId: campaignId! };
}
