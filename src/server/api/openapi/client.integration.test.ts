import { mkdtemp, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import openapiTS, { astToString, type OpenAPI3 } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "@/server/api/openapi/document";
import { handleRestRequest } from "@/server/api/rest/handle-rest-request";
import { testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { documentChecker, type ObservedResponse } from "@/test/openapi-responses";
import { createOrgWithApiKey } from "@/test/rest";
import { runNodeScript } from "@/test/run-node";

/*
 * The document as an outside integrator uses it: a typed client generated with openapi-typescript
 * drives a whole flow through openapi-fetch; the flow must type-check against the generated types
 * (and values the server refuses must not), and every live answer must match the document.
 */

const root = path.resolve(import.meta.dirname, "../../../..");
const doc = buildOpenApiDocument("http://localhost");
let t: TestDb;
let dir: string;

beforeAll(async () => {
  t = await createTestDb();
  // Inside the checkout, so that the generated code resolves openapi-fetch; .tmp-* is ignored by lint and git.
  dir = await mkdtemp(path.join(root, ".tmp-openapi-client-"));
  await writeFile(path.join(dir, "schema.d.ts"), astToString(await openapiTS(doc as unknown as OpenAPI3)));
  await writeFile(path.join(dir, "flow.ts"), FLOW);
  await writeFile(path.join(dir, "refused.ts"), REFUSED);
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
  await t?.drop();
});

describe("a client generated from the document", () => {
  it("type-checks a whole flow, and refuses at compile time what the server refuses", async () => {
    const tsc = path.join(root, "node_modules/typescript/bin/tsc");
    const options = ["--noEmit", "--strict", "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler", "--lib", "es2023,dom", "--skipLibCheck"];
    const run = await runNodeScript(tsc, [...options, path.join(dir, "flow.ts"), path.join(dir, "refused.ts")], { cwd: root, timeout: 120_000 });
    expect(run.output).toBe("");
    expect(run.code).toBe(0);
  }, 150_000);

  it("runs the flow against the server, and every answer matches the document", async () => {
    const { apiKey } = await createOrgWithApiKey(t.db);
    const services = testServices(t.db);
    const check = documentChecker(doc);
    const observed: ObservedResponse[] = [];
    const fetchViaHandler = async (request: Request) => {
      const response = await handleRestRequest(request, services);
      observed.push({ method: request.method, url: request.url, status: response.status, headers: response.headers, text: await response.clone().text() });
      return response;
    };
    const { flow } = (await import(/* @vite-ignore */ path.join(dir, "flow.ts"))) as { flow: Flow };
    const result = await flow("http://localhost/api/v1", apiKey, fetchViaHandler);
    expect(result).toMatchObject({ claimed: true, usersListed: 2, missingStatus: 404, missingType: "urn:referloop:problem:not-found" });
    expect(result.secret).toMatch(/^sk_/);
    expect(observed.length).toBeGreaterThan(15);
    expect(observed.flatMap(check)).toEqual([]);
  });
});

type Flow = (baseUrl: string, apiKey: string, fetch: (request: Request) => Promise<Response>) => Promise<Record<string, unknown>>;

const FLOW = `
import createClient from "openapi-fetch";
import type { components, paths } from "./schema";

type Problem = components["schemas"]["Problem"];
type Answer<T> = { data?: T; error?: unknown; response: Response };

function must<T>(answer: Answer<T>, what: string): T {
  if (answer.data === undefined) throw new Error(what + ": " + answer.response.status + " " + JSON.stringify(answer.error));
  return answer.data;
}

export async function flow(baseUrl: string, apiKey: string, fetch: (request: Request) => Promise<Response>) {
  const api = createClient<paths>({ baseUrl, fetch, headers: { Authorization: "Bearer " + apiKey } });

  const project = must(await api.POST("/public/projects", {
    body: { name: "Typed shop", referralRedirectLink: "https://shop.example.com/join", appType: "Web" },
  }), "create project");
  const projectId: string = project.uniqueId;
  const secret: string = project.projectSecret;
  const inProject = { projectId };
  must(await api.PUT("/public/projects/{projectId}", { params: { path: inProject }, body: { description: "Typed from the document" } }), "update project");

  const referrer = must(await api.POST("/public/projects/{projectId}/users", {
    params: { path: inProject, header: { "Idempotency-Key": "create-typed-referrer" } },
    body: { clientProvidedId: "typed-referrer", attributes: { name: "Ada" } },
  }), "create user");
  const code: string = referrer.referralCode;
  const link = must(await api.POST("/public/projects/{projectId}/referrals/link", {
    params: { path: inProject },
    body: { referrerId: referrer.clientProvidedId, rewardEventName: "purchase" },
  }), "link");

  const campaign = must(await api.PUT("/public/projects/{projectId}/campaign", {
    params: { path: inProject },
    body: { attributionModel: "first", newUserExperience: { promoText: "Welcome", promoPosition: "top-center" }, referrerExperience: { theme: { tintAlpha: 0.5 } } },
  }), "campaign");
  const model: "first" | "last" = campaign.attributionModel;
  const hook = must(await api.POST("/public/projects/{projectId}/webhooks/{campaignId}", {
    params: { path: { projectId, campaignId: campaign.campaignId } },
    body: { name: "Typed hook", url: "https://hooks.example.com/typed", environment: "Production" },
  }), "create webhook");
  const webhookSecret: string = hook.secret;
  must(await api.PUT("/public/projects/{projectId}/webhooks/{webhookId}", { params: { path: { projectId, webhookId: hook.id } }, body: { enabled: false } }), "update webhook");

  const tracked = must(await api.POST("/public/projects/{projectId}/referrals/track", {
    params: { path: inProject },
    body: { referralCode: code, refereeId: "typed-referee", rewardEventName: "purchase" },
  }), "track");
  const reward = must(await api.POST("/public/projects/{projectId}/referrals/reward", {
    params: { path: inProject, header: { "Idempotency-Key": "typed-reward" } },
    body: { referralTrackingId: tracked.referralTrackingId, eventName: "purchase", environment: "Production" },
  }), "reward");
  const claimed: boolean = reward.rewardClaimed;

  const users = must(await api.GET("/public/projects/{projectId}/users", {
    params: { path: inProject, query: { sortBy: "successfulReferrals", sortOrder: "desc", hasReferrals: true, page: 1, pageSize: 10, search: "typed" } },
  }), "list users");
  const everyone = must(await api.GET("/public/projects/{projectId}/users", { params: { path: inProject } }), "list all users");
  const referee = must(await api.GET("/public/projects/{projectId}/users/by-user-id/{clientProvidedId}", {
    params: { path: { projectId, clientProvidedId: "typed-referee" } },
  }), "get by client id");
  const received = must(await api.GET("/public/projects/{projectId}/users/{uniqueId}/referrals", {
    params: { path: { projectId, uniqueId: referee.uniqueId }, query: { direction: "received", status: "Completed" } },
  }), "referrals received");
  // Every status a referral can have, Revoked included (issue 35's compatibility note: clients must expect it).
  const status: "Pending" | "Completed" | "Failed" | "Revoked" | undefined = received.items[0]?.status;
  must(await api.PUT("/public/projects/{projectId}/users/{uniqueId}", { params: { path: { projectId, uniqueId: referee.uniqueId } }, body: { attributes: { plan: "pro" } } }), "update user");
  must(await api.GET("/public/projects/{projectId}/users/{uniqueId}", { params: { path: { projectId, uniqueId: referrer.uniqueId } } }), "get user");
  must(await api.GET("/public/projects/{projectId}/users/{uniqueId}/events", { params: { path: { projectId, uniqueId: referrer.uniqueId }, query: { limit: 5 } } }), "events");
  must(await api.GET("/public/projects/{projectId}/referrals", { params: { path: inProject, query: { status: "Completed" } } }), "referrals");
  must(await api.GET("/public/projects/{projectId}/activity", { params: { path: inProject, query: { pageSize: 5 } } }), "activity");
  must(await api.GET("/public/projects/{projectId}/webhooks", { params: { path: inProject } }), "webhooks");
  must(await api.GET("/public/projects/{projectId}/webhooks/{webhookId}/logs", { params: { path: { projectId, webhookId: hook.id }, query: { limit: 10 } } }), "logs");
  must(await api.GET("/public/projects/{projectId}/campaign", { params: { path: inProject } }), "get campaign");
  const listed = must(await api.GET("/public/projects"), "list projects");

  const missing = await api.GET("/public/projects/{projectId}", { params: { path: { projectId: "00000000-0000-0000-0000-000000000000" } } });
  const problem: Problem | undefined = missing.error;
  await api.DELETE("/public/projects/{projectId}/webhooks/{webhookId}", { params: { path: { projectId, webhookId: hook.id } } });
  await api.POST("/public/projects/{projectId}/rotate-secret", { params: { path: inProject } });

  return {
    secret, claimed, model, status, webhookSecret,
    link: link.referralLink,
    usersListed: everyone.totalCount,
    typedSearchHits: users.items.length,
    projects: listed.length,
    missingStatus: missing.response.status,
    missingType: problem?.type,
  };
}
`;

/** Each line must be a type error: if the generated types accepted it, the directive itself fails tsc. */
const REFUSED = `
import createClient from "openapi-fetch";
import type { paths } from "./schema";

declare const api: ReturnType<typeof createClient<paths>>;
const path = { projectId: "p" };

// @ts-expect-error SortBy is one of the sortable fields
void api.GET("/public/projects/{projectId}/users", { params: { path, query: { sortBy: "name" } } });
// @ts-expect-error HasReferrals is a boolean
void api.GET("/public/projects/{projectId}/users", { params: { path, query: { hasReferrals: "yes" } } });
// @ts-expect-error direction is given or received
void api.GET("/public/projects/{projectId}/users/{uniqueId}/referrals", { params: { path: { projectId: "p", uniqueId: "u" }, query: { direction: "both" } } });
// @ts-expect-error the environment is Sandbox or Production
void api.POST("/public/projects/{projectId}/referrals/reward", { params: { path }, body: { referralTrackingId: "t", environment: "Staging" } });
// @ts-expect-error a project needs a name
void api.POST("/public/projects", { body: { description: "nameless" } });
// @ts-expect-error the attribution model is first or last
void api.PUT("/public/projects/{projectId}/campaign", { params: { path }, body: { attributionModel: "middle" } });
// @ts-expect-error a webhook's scope is Sandbox, Production or Both
void api.POST("/public/projects/{projectId}/webhooks/{campaignId}", { params: { path: { projectId: "p", campaignId: "c" } }, body: { name: "n", url: "https://x.example", environment: "Live" } });
// @ts-expect-error attributes map strings to strings
void api.PUT("/public/projects/{projectId}/users/{uniqueId}", { params: { path: { projectId: "p", uniqueId: "u" } }, body: { attributes: { age: 42 } } });
`;
