import http from "node:http";
import type { AddressInfo } from "node:net";
import { NextRequest } from "next/server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { answerForbiddenMethods } from "./forbidden-methods";
import { installRequestHooks } from "./request-hooks";

/*
 * What Next.js would answer itself (a 500 in text/plain) is answered by us as a problem: through the
 * proxy for malformed paths and odd methods, at the Node server for the methods Fetch cannot carry.
 * e2e/security.spec.ts checks the same against the production server.
 */

describe("the proxy under /api/", () => {
  it("answers a path that does not decode as a 400 problem with a request id", async () => {
    for (const path of ["/api/v1/public/projects/%ZZ", "/api/v1/public/projects/%ED%A0%80", "/api/v1/public/%E0%A4%A", "/api/trpc/%C3"]) {
      const res = proxy(new NextRequest(`http://localhost${path}`))!;
      expect(res.status, path).toBe(400);
      expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      const body = await res.json();
      expect(body).toMatchObject({ type: "urn:referloop:problem:malformed-path", status: 400, instance: path });
      expect(body.requestId).toBe(res.headers.get("x-request-id"));
    }
  });

  it("answers a method no API route serves as a 405 problem with Allow", async () => {
    const res = proxy(new NextRequest("http://localhost/api/v1/public/projects", { method: "PROPFIND", headers: { "x-request-id": "edge-1" } }))!;
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD, POST, PUT, DELETE, OPTIONS");
    expect(await res.json()).toMatchObject({ type: "urn:referloop:problem:method-not-allowed", requestId: "edge-1" });
  });

  it("passes everything else on, with the request id for the handler and the response", () => {
    const passed = proxy(new NextRequest("http://localhost/api/v1/public/projects/a%2Fb", { headers: { "x-request-id": "kept.1" } }))!;
    expect(passed.headers.get("x-middleware-next")).toBe("1");
    expect(passed.headers.get("x-request-id")).toBe("kept.1");
    expect(passed.headers.get("x-middleware-request-x-request-id")).toBe("kept.1");
    const page = proxy(new NextRequest("http://localhost/sign-in", { headers: { "x-request-id": "not valid!" } }))!;
    expect(page.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(page.headers.get("content-security-policy")).toContain("nonce-");
  });
});

describe("methods Fetch cannot carry (TRACE)", () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    installRequestHooks([answerForbiddenMethods]);
    server = http.createServer((_req, res) => res.end("reached the application"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    installRequestHooks([]);
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const send = (method: string, path: string) =>
    new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
      const req = http.request({ host: "127.0.0.1", port, method, path, headers: { "x-request-id": "trace-1" } }, (res) => {
        let body = "";
        res.on("data", (chunk) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      });
      req.on("error", reject);
      req.end();
    });

  it("are a 405 problem under /api/, a plain 405 elsewhere, and never reach the application", async () => {
    const api = await send("TRACE", "/api/v1/public/projects?x=1");
    expect(api.status).toBe(405);
    expect(api.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(api.headers.allow).toBe("GET, HEAD, POST, PUT, DELETE, OPTIONS");
    expect(JSON.parse(api.body)).toMatchObject({ status: 405, instance: "/api/v1/public/projects", requestId: "trace-1" });
    const page = await send("TRACE", "/sign-in");
    expect(page.status).toBe(405);
    expect(page.body).toBe("Method Not Allowed");
    expect((await send("GET", "/api/v1/public/projects")).body).toBe("reached the application");
  });
});
