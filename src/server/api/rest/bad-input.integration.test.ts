import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey, expectProblem, type RestClient, restClient, restClientForNewOrg } from "@/test/rest";
import { dataSnapshot } from "@/test/snapshot";
import { logger } from "@/server/observability/logger";

/*
 * Input no handler should have to think about, over the real REST handler: text PostgreSQL cannot
 * store, missing bodies, wrong methods. Each is a 400/405 problem naming the field and rule, and
 * nothing is written. (Malformed escapes and TRACE never reach the handler: see src/server/http.)
 */

let t: TestDb;
let call: RestClient;
let projectId: string;
let campaignId: string;
let webhookId: string;
let user: { uniqueId: string; clientProvidedId: string };

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  const project = (await call("POST", "/projects", { body: { name: "Hardened", referralRedirectLink: "https://shop.example.com/join" } })).json;
  projectId = project.uniqueId;
  campaignId = project.campaignId;
  user = (await call("POST", `/projects/${projectId}/users`, { body: { clientProvidedId: "alice" } })).json;
  webhookId = (await call("POST", `/projects/${projectId}/webhooks/${campaignId}`, { body: { name: "Hook", url: "https://hooks.example.com/a" } })).json.id;
});
afterAll(() => t?.drop());

const NUL = "a\u0000b";
const LONE = "a\ud800b";

describe("an attribute key a JavaScript object cannot hold", () => {
  it.each([
    ["POST", () => `/projects/${projectId}/users`, `{"clientProvidedId":"proto","attributes":{"plan":"pro","__proto__":"x"}}`],
    ["PUT", () => `/projects/${projectId}/users/${user.uniqueId}`, `{"attributes":{"__proto__":"x"}}`],
  ] as const)("%s: __proto__ is a 400 naming the rule, never silently dropped; nothing written", async (method, path, rawBody) => {
    const before = await dataSnapshot(t.db);
    const res = await call(method, path(), { rawBody, headers: { "content-type": "application/json" } });
    expectProblem(res, 400, [["attributes", "reserved_key"]]);
    expect(await dataSnapshot(t.db)).toBe(before);
  });
});

describe("text PostgreSQL cannot store", () => {
  const bodies: [string, string, (bad: string) => unknown, string][] = [
    ["POST", "/projects", (bad) => ({ name: bad }), "name"],
    ["POST", "/projects", (bad) => ({ name: "ok", description: bad }), "description"],
    ["POST", "/projects", (bad) => ({ name: "ok", allowedOrigins: ["https://a.example", bad] }), "allowedOrigins.1"],
    ["PUT", "/projects/{p}", (bad) => ({ app: { name: bad } }), "app.name"],
    ["POST", "/projects/{p}/users", (bad) => ({ ClientProvidedId: bad }), "clientProvidedId"],
    ["POST", "/projects/{p}/users", (bad) => ({ clientProvidedId: "u1", attributes: { plan: bad } }), "attributes.plan"],
    ["POST", "/projects/{p}/users", (bad) => ({ clientProvidedId: "u2", attributes: { [bad]: "x" } }), "attributes"],
    ["PUT", "/projects/{p}/users/{u}", (bad) => ({ attributes: { [bad]: "x" } }), "attributes"],
    ["PUT", "/projects/{p}/campaign", (bad) => ({ ReferrerExperience: { modal: { modalTitle: bad } } }), "referrerExperience.modal.modalTitle"],
    ["PUT", "/projects/{p}/campaign", (bad) => ({ newUserExperience: { promoText: bad } }), "newUserExperience.promoText"],
    ["POST", "/projects/{p}/referrals/link", (bad) => ({ referrerId: "alice", rewardEventName: bad }), "rewardEventName"],
    ["POST", "/projects/{p}/referrals/track", (bad) => ({ referralCode: bad, refereeId: "bob" }), "referralCode"],
    ["POST", "/projects/{p}/referrals/track", (bad) => ({ referralCode: "abc123", refereeId: bad }), "refereeId"],
    ["POST", "/projects/{p}/referrals/reward", (bad) => ({ referralTrackingId: bad }), "referralTrackingId"],
    ["POST", "/projects/{p}/referrals/reward", (bad) => ({ referralTrackingId: "x", eventName: bad }), "eventName"],
    ["POST", "/projects/{p}/webhooks/{c}", (bad) => ({ name: bad, url: "https://hooks.example.com/b" }), "name"],
    ["PUT", "/projects/{p}/webhooks/{w}", (bad) => ({ url: `https://hooks.example.com/${bad}` }), "url"],
    ["PUT", "/projects/{p}/webhooks/{w}", (bad) => ({ secret: `whsec-long-enough-${bad}` }), "secret"],
    // An unknown field is ignored by the schemas, but still refused: nothing reaches the database unchecked.
    ["POST", "/projects", (bad) => ({ name: "ok", Unknown: { deeper: [bad] } }), "unknown.deeper.0"],
  ];
  const path = (template: string) =>
    template.replace("{p}", projectId).replace("{u}", user.uniqueId).replace("{c}", campaignId).replace("{w}", webhookId);

  it.each(bodies.flatMap(([method, template, body, field]) => [NUL, LONE].map((bad) => [method, template, body, field, bad] as const)))(
    "%s %s with %#: a 400 naming the field and rule, nothing written",
    async (method, template, body, field, bad) => {
      const before = await dataSnapshot(t.db);
      const res = await call(method, path(template), { body: body(bad) });
      expectProblem(res, 400, [[field, bad === NUL ? "no_nul" : "well_formed_unicode"]]);
      expect(await dataSnapshot(t.db)).toBe(before);
    },
  );

  it("in path ids and query parameters (NUL is the only one a URL can carry: bad UTF-8 escapes decode to U+FFFD in a query)", async () => {
    const before = await dataSnapshot(t.db);
    expectProblem(await call("GET", `/projects/a%00b`), 400, [["projectId", "no_nul"]]);
    expectProblem(await call("DELETE", `/projects/a%00b`), 400, [["projectId", "no_nul"]]);
    expectProblem(await call("GET", `/projects/${projectId}/users/by-user-id/alice%00`), 400, [["clientProvidedId", "no_nul"]]);
    expectProblem(await call("GET", `/projects/${projectId}/webhooks/${webhookId}%00/logs`), 400, [["webhookId", "no_nul"]]);
    expectProblem(await call("GET", `/projects/${projectId}/users?Search=al%00ice`), 400, [["search", "no_nul"]]);
    expectProblem(await call("GET", `/projects/${projectId}/users?SortBy=%00`), 400, [["sortBy", "no_nul"]]);
    expectProblem(await call("POST", `/webhooks/logs/%00/retry`), 400, [["logId", "no_nul"]]);
    // A malformed escape never gets past the proxy; should one reach the handler, it names nothing.
    expectProblem(await call("GET", `/projects/%ZZ/users?ProjectId=x`), 400, [["ProjectId", "matches_path"]]);
    expectProblem(await call("GET", `/projects/%E0%A4%A/users`), 404);
    expect(await dataSnapshot(t.db)).toBe(before);
  });

  it("deeply nested bodies are answered without exhausting the stack", async () => {
    const deep = `[${"[".repeat(100_000)}"a\u0000"${"]".repeat(100_000)}]`;
    for (const rawBody of [`{"name":${deep}}`, `{"name":"ok","extra":${deep}}`, `{"clientProvidedId":"u","attributes":{"a":${deep}}}`]) {
      const res = await call("POST", rawBody.includes("clientProvidedId") ? `/projects/${projectId}/users` : "/projects", {
        rawBody,
        headers: { "content-type": "application/json" },
      });
      expectProblem(res, 400);
    }
  });
});

describe("bodies", () => {
  it.each([
    ["POST", "/projects"],
    ["PUT", "/projects/{p}"],
    ["PUT", "/projects/{p}/campaign"],
    ["PUT", "/projects/{p}/webhooks/{w}"],
    ["PUT", "/projects/{p}/users/{u}"],
    ["POST", "/projects/{p}/referrals/reward"],
  ])("%s %s without a body, or with only whitespace, is a 400 naming the body", async (method, template) => {
    const url = template.replace("{p}", projectId).replace("{u}", user.uniqueId).replace("{w}", webhookId);
    const before = await dataSnapshot(t.db);
    for (const rawBody of [undefined, "", " \n\t"]) {
      const res = await call(method, url, rawBody === undefined ? {} : { rawBody, headers: { "content-type": "application/json" } });
      expectProblem(res, 400, [["(body)", "required"]]);
    }
    expect(await dataSnapshot(t.db)).toBe(before);
  });

  it("an explicit empty object still updates nothing and answers 200, and operations without a body take none", async () => {
    expect((await call("PUT", `/projects/${projectId}`, { body: {} })).status).toBe(200);
    expect((await call("POST", `/projects/${projectId}/rotate-secret`)).status).toBe(200);
  });
});

describe("methods", () => {
  it("a known path with another method is a 405 problem with that path's Allow", async () => {
    const res = await call("PATCH", `/projects/${projectId}`, { body: { name: "x" } });
    expectProblem(res, 405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, PUT, DELETE, OPTIONS");
    expect((await call("DELETE", "/projects")).headers.get("allow")).toBe("GET, HEAD, POST, OPTIONS");
    expectProblem(await call("GET", "/nowhere"), 404);
  });

  it("OPTIONS answers 204 with Allow; HEAD answers as GET without the body", async () => {
    const options = await call("OPTIONS", `/projects/${projectId}/campaign`);
    expect(options.status).toBe(204);
    expect(options.headers.get("allow")).toBe("GET, HEAD, PUT, OPTIONS");
    const get = await call("GET", `/projects/${projectId}`);
    const head = await call("HEAD", `/projects/${projectId}`);
    expect(head.status).toBe(200);
    expect(head.text).toBe("");
    expect(head.headers.get("content-type")).toBe(get.headers.get("content-type"));
    expect((await call("HEAD", `/projects/${projectId}`, { apiKey: null })).status).toBe(401);
  });
});

describe("request ids", () => {
  it("echo a usable X-Request-Id and replace anything else, on success and on problems alike", async () => {
    const ok = await call("GET", "/projects", { headers: { "x-request-id": "client.trace-01_A" } });
    expect(ok.headers.get("x-request-id")).toBe("client.trace-01_A");
    for (const sent of ["has space", "x".repeat(129), "semi;colon", ""]) {
      const res = await call("GET", "/projects/missing", { headers: { "x-request-id": sent } });
      const id = res.headers.get("x-request-id");
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
      expect(res.json.requestId).toBe(id);
    }
  });

  it("an internal error answers a generic 500 with the request id; the detail goes to the log under that id", async () => {
    const broken = await createTestDb();
    const { apiKey } = await createOrgWithApiKey(broken.db);
    const failing = restClient(broken.db, apiKey);
    await broken.drop(); // the database is gone: every query from here fails inside Prisma
    const logged = vi.spyOn(logger(), "error").mockImplementation(() => {});
    try {
      const res = await failing("GET", "/projects", { headers: { "x-request-id": "incident-42" } });
      expectProblem(res, 500);
      expect(res.json.detail).toBe("An unexpected error occurred. Quote request id incident-42 when reporting it.");
      expect(res.json.requestId).toBe("incident-42");
      expect(res.text).not.toMatch(/prisma|database|postgres/i);
      // Logged once, under the request id, with the cause.
      const entries = logged.mock.calls.map(([fields]) => fields as unknown as { requestId?: string; err?: Error });
      expect(entries.filter((e) => e.requestId === "incident-42")).toHaveLength(1);
      expect(String(entries.find((e) => e.requestId === "incident-42")?.err)).toMatch(/database|prisma|connect/i);
    } finally {
      logged.mockRestore();
    }
  });
});
