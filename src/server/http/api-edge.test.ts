import { NextRequest } from "next/server";
import { describe, expect, it } from "vitest";
import { proxy } from "@/proxy";
import { refuseAtApiEdge } from "./api-edge";

/*
 * What Next.js would answer itself (a 500 in text/plain) is answered by us as a problem. The front
 * door asks refuseAtApiEdge for every /api/ request (front-door.integration.test.ts sends them over
 * HTTP); e2e/security.spec.ts checks the same against the production server.
 */
describe("refuseAtApiEdge", () => {
  it("answers a path that does not decode as a 400 problem with the request id", () => {
    for (const path of ["/api/v1/public/projects/%ZZ", "/api/v1/public/projects/%ED%A0%80", "/api/v1/public/%E0%A4%A", "/api/trpc/%C3"]) {
      const refused = refuseAtApiEdge("GET", path, "edge-0")!;
      expect(refused.status, path).toBe(400);
      expect(refused.headers).toMatchObject({ "content-type": "application/problem+json; charset=utf-8", "x-request-id": "edge-0" });
      expect(JSON.parse(refused.body)).toMatchObject({ type: "urn:referloop:problem:malformed-path", status: 400, instance: path, requestId: "edge-0" });
    }
  });

  it("answers a method no API route serves as a 405 problem with Allow, and passes the rest on", () => {
    for (const method of ["PROPFIND", "TRACE"]) {
      const refused = refuseAtApiEdge(method, "/api/v1/public/projects", "edge-1")!;
      expect(refused.status).toBe(405);
      expect(refused.headers.allow).toBe("GET, HEAD, POST, PUT, DELETE, OPTIONS");
      expect(JSON.parse(refused.body)).toMatchObject({ type: "urn:referloop:problem:method-not-allowed", requestId: "edge-1" });
    }
    expect(refuseAtApiEdge("GET", "/api/v1/public/projects/a%2Fb", "edge-2")).toBeNull();
  });
});

describe("the proxy of dashboard pages", () => {
  it("gives each page request a fresh nonce, in the CSP Next.js reads and the one the answer carries", () => {
    const page = proxy(new NextRequest("http://localhost/sign-in"));
    const csp = page.headers.get("content-security-policy")!;
    expect(csp).toMatch(/'nonce-[A-Za-z0-9+/=]+'/);
    expect(page.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    expect(proxy(new NextRequest("http://localhost/sign-in")).headers.get("content-security-policy")).not.toBe(csp);
  });
});
