import http from "node:http";
import type { AddressInfo } from "node:net";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { answerRest } from "@/server/api/rest/handle-rest-request";
import { testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey } from "@/test/rest";
import { answer } from "./api-exchange";
import { serveDirectly, viaFetch } from "./direct-routes";
import { MAX_BODY_BYTES } from "./request-body";
import { PEER_ADDRESS_HEADER, recordPeerAddress } from "./peer-address";
import { installRequestHooks } from "./request-hooks";

let t: TestDb;
let apiKey: string;
let server: http.Server;
let port: number;
const big = { items: Array.from({ length: 200 }, (_, i) => ({ i, text: "compressible text" })) };

beforeAll(async () => {
  t = await createTestDb();
  ({ apiKey } = await createOrgWithApiKey(t.db));
  const services = testServices(t.db);
  installRequestHooks([
    recordPeerAddress,
    serveDirectly([
      { path: "/api/v1/public/", handle: (request) => answerRest(request, services) },
      { path: "/exact", handle: viaFetch(async () => new Response("the exact path")) },
      {
        path: "/echo/",
        handle: async (request) => {
          if (request.url.endsWith("/fail")) throw new Error("handler failed");
          const headers = new Headers({ "content-type": "application/json" });
          headers.append("set-cookie", "a=1; Path=/");
          headers.append("set-cookie", "b=2; Path=/");
          const body = Buffer.from((await request.readBody(MAX_BODY_BYTES)) ?? []).toString("utf8");
          const seen = { peer: request.headers.get(PEER_ADDRESS_HEADER), method: request.method, body };
          return answer(200, headers, JSON.stringify(request.url.endsWith("/big") ? big : seen));
        },
      },
    ]),
  ]);
  // What Next.js would answer: every request the hooks leave alone.
  server = http.createServer((_req, res) => res.end("reached Next.js"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  installRequestHooks([]);
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.drop();
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

describe("the API answered straight from the Node server", () => {
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

  it("answers what Next.js would turn into a 500 as problems: malformed escapes, unknown methods", async () => {
    const malformed = await send("GET", "/api/v1/public/projects/%E0%A4%A", { "x-request-id": "bad-path" });
    expect(malformed.status).toBe(400);
    expect(malformed.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(JSON.parse(malformed.body.toString())).toMatchObject({ type: "urn:referloop:problem:malformed-path", requestId: "bad-path" });
    const unknown = await send("PROPFIND", "/api/v1/public/projects");
    expect(unknown.status).toBe(405);
    expect(unknown.headers.allow).toBe("GET, HEAD, POST, PUT, DELETE, OPTIONS");
    const unauthenticated = await send("GET", "/api/v1/public/projects");
    expect(unauthenticated.status).toBe(401);
  });

  it("leaves every other path to Next.js", async () => {
    for (const path of ["/", "/api/v1/openapi.json", "/api/trpc/x", "/echo", "/exactly", "/exact/below"]) {
      expect((await send("GET", path)).body.toString(), path).toBe("reached Next.js");
    }
    // A path not ending in "/" names that path alone, with or without a query.
    for (const path of ["/exact", "/exact?x=1"]) expect((await send("GET", path)).body.toString(), path).toBe("the exact path");
  });
});

describe("what the bridge does for any direct route", () => {
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

  it("passes the socket's address, not a client's claim, and every Set-Cookie", async () => {
    const answer = await send("POST", "/echo/x", { [PEER_ADDRESS_HEADER]: "203.0.113.9" }, "hello");
    expect(JSON.parse(answer.body.toString())).toEqual({ peer: expect.stringMatching(/^(::ffff:)?127\.0\.0\.1$/), method: "POST", body: "hello" });
    expect(answer.headers["set-cookie"]).toEqual(["a=1; Path=/", "b=2; Path=/"]);
  });

  it("a handler that throws is a 500, logged, and the server goes on serving", async () => {
    const failed = await send("GET", "/echo/fail");
    expect(failed.status).toBe(500);
    expect(failed.body.toString()).toBe("Internal error");
    expect((await send("GET", "/echo/small")).status).toBe(200);
  });
});
