import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createReferloopClient, ReferloopError } from "./index.ts";

/*
 * The client's own behaviour against a real HTTP server on 127.0.0.1 that answers from a script:
 * which calls are retried, with which Idempotency-Key, and what a problem becomes. (The whole client
 * against the real app runs in e2e/packages.spec.ts.)
 */
type Seen = { method: string; url: string; headers: IncomingHttpHeaders; body: string };
let seen: Seen[] = [];
let answers: { status: number; body?: unknown; headers?: Record<string, string> }[] = [];
let server: Server;
let baseUrl = "";

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
    req.on("end", () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const answer = answers.shift() ?? { status: 200, body: {} };
      res.writeHead(answer.status, { "Content-Type": answer.status < 400 ? "application/json" : "application/problem+json", ...answer.headers });
      res.end(answer.body === undefined ? "" : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
  seen = [];
  answers = [];
});

const client = (retries = 2) => createReferloopClient({ apiKey: "rl_test", baseUrl, retries, retryBaseMs: 1 });
const problem = (status: number, type: string, requestId = "req-1") => ({ status, body: { type, title: "t", status, detail: `detail ${status}`, requestId } });
const inProject = { params: { path: { projectId: "p1" } } };

describe("@referloop/node client", () => {
  it("sends the API key to /api/v1 and answers the data", async () => {
    answers = [{ status: 200, body: { campaignId: "c1" } }];
    const campaign = await client().GET("/public/projects/{projectId}/campaign", inProject);
    expect(campaign).toEqual({ campaignId: "c1" });
    expect(seen).toMatchObject([{ method: "GET", url: "/api/v1/public/projects/p1/campaign", headers: { authorization: "Bearer rl_test" } }]);
  });

  it("retries a GET after a 503 and a network-level 502, then answers", async () => {
    answers = [problem(503, "urn:referloop:problem:unavailable"), problem(502, "about:blank"), { status: 200, body: { campaignId: "c1" } }];
    expect(await client().GET("/public/projects/{projectId}/campaign", inProject)).toEqual({ campaignId: "c1" });
    expect(seen).toHaveLength(3);
  });

  it("retries a POST the server dedupes with one generated Idempotency-Key, the same on every attempt", async () => {
    answers = [problem(500, "urn:referloop:problem:internal"), { status: 201, body: { clientProvidedId: "ada" } }];
    await client().POST("/public/projects/{projectId}/users", { ...inProject, body: { clientProvidedId: "ada" } });
    expect(seen).toHaveLength(2);
    const keys = seen.map((s) => s.headers["idempotency-key"]);
    expect(keys[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(seen[1]!.body).toBe(JSON.stringify({ clientProvidedId: "ada" }));
    // Another call, another key.
    answers = [{ status: 201, body: {} }];
    await client().POST("/public/projects/{projectId}/users", { ...inProject, body: { clientProvidedId: "bob" } });
    expect(seen[2]!.headers["idempotency-key"]).not.toBe(keys[0]);
  });

  it("keeps the caller's Idempotency-Key", async () => {
    answers = [{ status: 201, body: {} }];
    await client().POST("/public/projects/{projectId}/users", { params: { path: { projectId: "p1" }, header: { "Idempotency-Key": "mine" } }, body: { clientProvidedId: "ada" } });
    expect(seen[0]!.headers["idempotency-key"]).toBe("mine");
  });

  it("never repeats a POST the server does not dedupe, nor a PUT", async () => {
    answers = [problem(503, "urn:referloop:problem:unavailable")];
    await expect(client().POST("/public/projects", { body: { name: "Shop", referralRedirectLink: "https://shop.example.com" } })).rejects.toBeInstanceOf(ReferloopError);
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers["idempotency-key"]).toBeUndefined();
    answers = [problem(503, "urn:referloop:problem:unavailable")];
    await expect(client().PUT("/public/projects/{projectId}", { ...inProject, body: { description: "x" } })).rejects.toBeInstanceOf(ReferloopError);
    expect(seen).toHaveLength(2);
  });

  it("gives up after its retries and throws the last problem, typed", async () => {
    answers = [1, 2, 3].map(() => problem(429, "urn:referloop:problem:rate-limited", "req-9"));
    const error = await client().GET("/public/projects/{projectId}/campaign", inProject).catch((e: unknown) => e);
    expect(seen).toHaveLength(3);
    expect(error).toBeInstanceOf(ReferloopError);
    expect(error).toMatchObject({ type: "urn:referloop:problem:rate-limited", status: 429, detail: "detail 429", requestId: "req-9" });
  });

  it("does not retry a client error; a body that is no problem still gives status and the X-Request-Id header", async () => {
    answers = [{ status: 404, body: undefined, headers: { "X-Request-Id": "edge-7" } }];
    const error = (await client().GET("/public/projects/{projectId}/campaign", inProject).catch((e: unknown) => e)) as ReferloopError;
    expect(seen).toHaveLength(1);
    expect(error).toMatchObject({ type: "about:blank", status: 404, requestId: "edge-7" });
  });

  it("retries a network failure of a safe call", async () => {
    // A closed port first, then the server: the fetch wrapper sees the connection refused and tries again.
    let calls = 0;
    const flaky = createReferloopClient({
      apiKey: "rl_test",
      baseUrl,
      retryBaseMs: 1,
      fetch: (input, init) => (++calls === 1 ? Promise.reject(new TypeError("fetch failed")) : fetch(input, init)),
    });
    answers = [{ status: 200, body: { campaignId: "c1" } }];
    expect(await flaky.GET("/public/projects/{projectId}/campaign", inProject)).toEqual({ campaignId: "c1" });
    expect(calls).toBe(2);
  });

  it("paginate walks every page from the query's page on", async () => {
    const page = (items: string[], hasNextPage: boolean) => ({ status: 200, body: { items: items.map((clientProvidedId) => ({ clientProvidedId })), page: 1, pageSize: 2, totalCount: 5, hasNextPage } });
    answers = [page(["a", "b"], true), page(["c", "d"], true), page(["e"], false)];
    const ids: string[] = [];
    for await (const user of client().paginate("/public/projects/{projectId}/users", { params: { path: { projectId: "p1" }, query: { pageSize: 2, search: "x" } } })) ids.push(user.clientProvidedId);
    expect(ids).toEqual(["a", "b", "c", "d", "e"]);
    expect(seen.map((s) => new URL(s.url, baseUrl).searchParams.toString())).toEqual(["pageSize=2&search=x&page=1", "pageSize=2&search=x&page=2", "pageSize=2&search=x&page=3"]);
  });
});
