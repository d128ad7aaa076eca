import http from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { answerRest } from "@/server/api/rest/handle-rest-request";
import { createLogger } from "@/server/observability/logger";
import { metricsText } from "@/server/observability/metrics";
import { testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey } from "@/test/rest";
import { answer } from "./api-exchange";
import { parseTrustedProxies } from "./client-ip";
import { createFrontDoor } from "./front-door";
import { MAX_BODY_BYTES } from "./request-body";
import { PEER_ADDRESS_HEADER, requestClientIp } from "./peer-address";

let t: TestDb;
let apiKey: string;
let server: http.Server;
let port: number;
const big = { items: Array.from({ length: 200 }, (_, i) => ({ i, text: "compressible text" })) };
/** The log lines the door wrote, parsed. */
const lines: Record<string, unknown>[] = [];
/** What the fallback (Next.js in the app) saw of the requests handed to it. */
let handedOn: http.IncomingHttpHeaders[] = [];

beforeAll(async () => {
  t = await createTestDb();
  ({ apiKey } = await createOrgWithApiKey(t.db));
  const services = testServices(t.db);
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  const door = createFrontDoor({
    log: createLogger({ logLevel: "info", devServer: false }, sink),
    accessLog: true,
    routes: [
      { path: "/api/v1/", handle: (request) => answerRest(request, services) },
      { path: "/exact", handle: async () => answer(200, { "content-type": "text/plain" }, "the exact path") },
      {
        path: "/echo/",
        handle: async (request) => {
          if (request.url.endsWith("/fail")) throw new Error("handler failed");
          if (request.url.endsWith("/stream")) {
            return { status: 200, headers: new Headers({ "content-type": "text/csv" }), body: (async function* () { for (let i = 0; i < 3; i++) yield `row ${i}\n`; })() };
          }
          const headers = new Headers({ "content-type": "application/json" });
          headers.append("set-cookie", "a=1; Path=/");
          headers.append("set-cookie", "b=2; Path=/");
          const body = Buffer.from((await request.readBody(MAX_BODY_BYTES)) ?? []).toString("utf8");
          const seen = { peer: request.headers.get(PEER_ADDRESS_HEADER), method: request.method, body };
          return answer(200, headers, JSON.stringify(request.url.endsWith("/big") ? big : seen));
        },
      },
    ],
    fallback: async (req, res) => {
      handedOn.push(req.headers);
      res.end("reached Next.js");
    },
  });
  server = http.createServer(door);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.drop();
});

beforeEach(() => {
  handedOn = [];
  lines.splice(0);
});

/** A raw exchange: the bytes as sent, no decompression, every header. */
function send(method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The access line of a request, once its close event has run. */
async function accessLine(requestId: string) {
  for (let i = 0; i < 50 && !lines.some((l) => l.requestId === requestId && l.msg === "request"); i++) await new Promise((r) => setTimeout(r, 10));
  return lines.find((l) => l.requestId === requestId && l.msg === "request");
}

describe("its own routes", () => {
  it("runs the REST handler with the streamed body, the request id both ways and the API's headers", async () => {
    const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "x-request-id": "direct-1" };
    const created = await send("POST", "/api/v1/public/projects", auth, JSON.stringify({ name: "Direct", appType: "Web" }));
    expect(created.status, created.body.toString()).toBe(201);
    expect(created.headers).toMatchObject({
      "x-request-id": "direct-1",
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
    });
    const { uniqueId: id } = JSON.parse(created.body.toString()) as { uniqueId: string };
    const read = await send("GET", `/api/v1/public/projects/${id}`, { authorization: `Bearer ${apiKey}` });
    expect(JSON.parse(read.body.toString())).toMatchObject({ uniqueId: id, name: "Direct" });
    expect(read.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);

    const head = await send("HEAD", `/api/v1/public/projects/${id}`, { authorization: `Bearer ${apiKey}` });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
  });

  it("refuses a body over the limit with a 413 problem the client receives, declared or streamed", async () => {
    const auth = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
    const body = JSON.stringify({ name: "x".repeat(MAX_BODY_BYTES) });
    const declared = await send("POST", "/api/v1/public/projects", auth, body);
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body.toString())).toMatchObject({ type: "urn:referloop:problem:payload-too-large" });
    const streamed = await send("POST", "/api/v1/public/projects", { ...auth, "transfer-encoding": "chunked" }, body);
    expect(streamed.status).toBe(413);
    expect(JSON.parse(streamed.body.toString())).toMatchObject({ type: "urn:referloop:problem:payload-too-large" });
    // The server is still there for the next request.
    expect((await send("GET", "/api/v1/public/projects", { authorization: `Bearer ${apiKey}` })).status).toBe(200);
  });

  it("answers what Next.js would turn into a 500 as problems: malformed escapes, unknown methods, TRACE", async () => {
    const malformed = await send("GET", "/api/v1/public/projects/%E0%A4%A", { "x-request-id": "bad-path" });
    expect(malformed.status).toBe(400);
    expect(malformed.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(JSON.parse(malformed.body.toString())).toMatchObject({ type: "urn:referloop:problem:malformed-path", requestId: "bad-path" });
    const unknown = await send("PROPFIND", "/api/v1/public/projects");
    expect(unknown.status).toBe(405);
    expect(unknown.headers.allow).toBe("GET, HEAD, POST, PUT, DELETE, OPTIONS");
    // The same under /api/ paths Next.js serves (the dashboard's tRPC endpoint).
    expect((await send("GET", "/api/trpc/%C3")).status).toBe(400);
    const trace = await send("TRACE", "/api/v1/public/projects?x=1", { "x-request-id": "trace-1" });
    expect(trace.status).toBe(405);
    expect(JSON.parse(trace.body.toString())).toMatchObject({ status: 405, instance: "/api/v1/public/projects", requestId: "trace-1" });
    const page = await send("TRACE", "/sign-in");
    expect(page.status).toBe(405);
    expect(page.body.toString()).toBe("Method Not Allowed");
    expect(handedOn).toEqual([]);
    expect((await send("GET", "/api/v1/public/projects")).status).toBe(401);
  });

  it("gzips compressible bodies from 1 KiB for clients that accept it, and says it varies", async () => {
    const zipped = await send("GET", "/echo/big", { "accept-encoding": "gzip, br" });
    expect(zipped.headers["content-encoding"]).toBe("gzip");
    expect(zipped.headers.vary).toBe("Accept-Encoding");
    expect(JSON.parse(gunzipSync(zipped.body).toString())).toEqual(big);
    expect(Number(zipped.headers["content-length"])).toBe(zipped.body.length);

    const plain = await send("GET", "/echo/big", { "accept-encoding": "gzip;q=0" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(JSON.parse(plain.body.toString())).toEqual(big);
    const small = await send("GET", "/echo/small", { "accept-encoding": "gzip" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.headers.vary).toBe("Accept-Encoding");
  });

  it("streams a body produced as it goes", async () => {
    const streamed = await send("GET", "/echo/stream");
    expect(streamed.headers["transfer-encoding"]).toBe("chunked");
    expect(streamed.body.toString()).toBe("row 0\nrow 1\nrow 2\n");
  });

  it("passes the socket's address, not a client's claim, and every Set-Cookie", async () => {
    const answered = await send("POST", "/echo/x", { [PEER_ADDRESS_HEADER]: "203.0.113.9" }, "hello");
    expect(JSON.parse(answered.body.toString())).toEqual({ peer: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/), method: "POST", body: "hello" });
    expect(answered.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("a handler that throws is a 500 quoting the request id, logged once under it, and the server goes on serving", async () => {
    const failed = await send("GET", "/echo/fail", { "x-request-id": "fails-1" });
    expect(failed.status).toBe(500);
    expect(failed.body.toString()).toBe("Internal error (request fails-1)");
    await accessLine("fails-1");
    expect(lines.filter((l) => l.level === 50)).toMatchObject([{ requestId: "fails-1", route: "/echo/*", msg: "request failed", err: { message: "handler failed" } }]);
    expect((await send("GET", "/echo/small")).status).toBe(200);
  });
});

describe("everything else", () => {
  it("goes to Next.js with the request id and the socket's address set, and the path headers on the answer", async () => {
    for (const path of ["/", "/api/trpc/x", "/echo", "/exactly", "/exact/below"]) {
      const res = await send("GET", path, { "x-request-id": "next-1", [PEER_ADDRESS_HEADER]: "203.0.113.9", "x-forwarded-for": "198.51.100.7" });
      expect(res.body.toString(), path).toBe("reached Next.js");
      expect(res.headers).toMatchObject({ "x-request-id": "next-1", "x-content-type-options": "nosniff" });
    }
    expect(handedOn.map((h) => h["x-request-id"])).toEqual(Array(5).fill("next-1"));
    const seen = new Headers(Object.entries(handedOn[0]!).map(([k, v]): [string, string] => [k, String(v)]));
    expect(seen.get(PEER_ADDRESS_HEADER)).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    // No proxy trusted: the forged X-Forwarded-For is ignored; behind a trusted one (loopback) it names the client.
    expect(requestClientIp(seen, parseTrustedProxies(""))).toBe("127.0.0.1");
    expect(requestClientIp(seen, parseTrustedProxies("loopback"))).toBe("198.51.100.7");
    // A path not ending in "/" names that path alone, with or without a query.
    for (const path of ["/exact", "/exact?x=1"]) expect((await send("GET", path)).body.toString(), path).toBe("the exact path");
    // An unusable id is replaced.
    expect((await send("GET", "/sign-in", { "x-request-id": "not valid!" })).headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("a client address is unknown without the door's header: never a client's X-Forwarded-For", () => {
    expect(requestClientIp(new Headers({ "x-forwarded-for": "198.51.100.7" }), parseTrustedProxies("loopback"))).toBeNull();
  });
});

describe("the request log and metrics", () => {
  it("write one line per request with method, route template, status, duration and request id, and nothing secret", async () => {
    const secretBody = JSON.stringify({ name: "Secret-body-text", appType: "Web" });
    const created = await send("POST", "/api/v1/public/projects?token=query-secret", { authorization: `Bearer ${apiKey}`, "content-type": "application/json", "x-request-id": "log-1" }, secretBody);
    expect(created.status).toBe(201);
    const projectSecret = (JSON.parse(created.body.toString()) as { projectSecret: string }).projectSecret;
    await send("GET", "/invitations/an-invitation-token?x=1", { "x-request-id": "log-2", cookie: "next-auth.session-token=cookie-secret" });
    const rest = await accessLine("log-1");
    expect(rest).toMatchObject({ level: 30, msg: "request", method: "POST", route: "/api/v1/public/projects", status: 201, requestId: "log-1", ms: expect.any(Number) });
    expect(await accessLine("log-2")).toMatchObject({ method: "GET", route: "/invitations/*", status: 200 });
    const written = JSON.stringify(lines);
    for (const secret of [apiKey, apiKey.slice(0, 12), projectSecret, "Secret-body-text", "query-secret", "an-invitation-token", "cookie-secret"]) {
      expect(written).not.toContain(secret);
    }
    expect(written.toLowerCase()).not.toContain("authorization");
  });

  it("count requests by route template and status", async () => {
    const count = async () => Number(/referloop_http_requests_total\{method="GET",route="\/exact",status="200"\} (\d+)/.exec(await metricsText())?.[1] ?? 0);
    const before = await count();
    await send("GET", "/exact");
    await send("GET", "/exact?y=2");
    await accessLine((await send("GET", "/exact", { "x-request-id": "count-3" })).headers["x-request-id"] as string);
    expect(await count()).toBe(before + 3);
  });

  it("keep one series for every path no route covers: 10,000 distinct unknown paths, edge refusals included, add none", async () => {
    const series = async () => (await metricsText()).split("\n").filter((line) => /^referloop_http_request(s_total|_duration_seconds_count)\{/.test(line)).length;
    const methods = ["GET", "TRACE", "POST", "DELETE", "PROPFIND", "OPTIONS"];
    // Each kind: Next.js's unknown paths, TRACE anywhere, /api/ with a bad escape or an unknown method.
    const unknownPath = (i: number) => {
      const id = `${i.toString(16)}-${crypto.randomUUID()}`;
      return [`/${id}`, `/api/${id}/%ff`, `/api/${id}`, `/_next/${id}/x`, `/${id}/%E0%A4%A`][i % 5]!;
    };
    const sendAll = async (from: number, to: number) => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
      const one = (i: number) =>
        new Promise<number>((resolve, reject) => {
          const req = http.request({ host: "127.0.0.1", port, agent, method: methods[i % methods.length], path: unknownPath(i) }, (res) => res.resume().on("end", () => resolve(res.statusCode!)));
          req.on("error", reject).end();
        });
      const statuses = new Set<number>();
      for (let i = from; i < to; i += 50) for (const status of await Promise.all(Array.from({ length: Math.min(50, to - i) }, (_, k) => one(i + k)))) statuses.add(status);
      agent.destroy();
      return statuses;
    };
    // Every combination of method, kind and answer once, so each shared series exists before counting.
    expect(await sendAll(0, 60)).toEqual(new Set([200, 400, 405]));
    const before = await series();
    await sendAll(60, 10_060);
    expect(await series()).toBe(before);
    expect(await metricsText()).toMatch(/referloop_http_requests_total\{method="other",route="unmatched",status="405"\}/);
  });
});
