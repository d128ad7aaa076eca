import http from "node:http";
import { expect, test, type Page } from "@playwright/test";
import { PASSWORD, signUp, uniqueEmail } from "./helpers";

/** The production server: what Next.js would answer on its own, and the sign-in lockout over HTTP. */
const port = Number(process.env.E2E_PORT ?? 3100);

/** A raw request (no client normalising the path or refusing the method). */
function raw(method: string, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port, method, path, headers }, (res) => {
      let body = "";
      res.on("data", (chunk) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

test.describe("the API edge", () => {
  test("malformed escapes and methods no route serves are problems, never Next's 500", async () => {
    for (const path of ["/api/v1/public/projects/%ZZ", "/api/v1/public/projects/%ED%A0%80", "/api/trpc/%E0%A4%A"]) {
      const res = await raw("GET", path);
      expect(res.status, path).toBe(400);
      expect(res.headers["content-type"]).toBe("application/problem+json; charset=utf-8");
      expect(JSON.parse(res.body)).toMatchObject({ type: "urn:referloop:problem:malformed-path", status: 400 });
    }
    for (const method of ["TRACE", "PROPFIND"]) {
      const res = await raw(method, "/api/v1/public/projects", { "x-request-id": "edge-e2e" });
      expect(res.status, method).toBe(405);
      expect(res.headers.allow).toBe("GET, HEAD, POST, PUT, DELETE, OPTIONS");
      expect(JSON.parse(res.body)).toMatchObject({ type: "urn:referloop:problem:method-not-allowed", requestId: "edge-e2e" });
    }
    const known = await raw("PATCH", "/api/v1/public/projects");
    expect(known.status).toBe(405);
    expect(known.headers.allow).toBe("GET, HEAD, POST, OPTIONS");
  });

  test("every response carries X-Request-Id: a usable one is echoed, anything else replaced", async ({ request }) => {
    const api = await request.get("/api/v1/public/projects", { headers: { "x-request-id": "trace.e2e-1" } });
    expect(api.status()).toBe(401);
    expect(api.headers()["x-request-id"]).toBe("trace.e2e-1");
    expect((await api.json()).requestId).toBe("trace.e2e-1");
    for (const path of ["/sign-in", "/api/v1/openapi.json", "/api/trpc/accounts.me", "/sdk/v1/referloop.js", "/r/some-code"]) {
      const res = await request.get(path, { headers: { "x-request-id": "not usable!" } });
      expect(res.headers()["x-request-id"], path).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});

async function failSignIn(page: Page, email: string, password: string) {
  await page.getByLabel("E-mail").fill(email);
  await page.getByLabel("Password").fill(password);
  const [answer] = await Promise.all([
    page.waitForResponse((res) => res.url().includes("/api/auth/callback/credentials")),
    page.getByRole("button", { name: "Sign in" }).click(),
  ]);
  return answer;
}

test.describe("sign-in lockout", () => {
  test("repeated failures lock the address with a 429, the same whether or not the account exists", async ({ page, browser }) => {
    const existing = await signUp(page);
    for (const email of [existing, uniqueEmail("nobody")]) {
      const context = await browser.newContext();
      const visitor = await context.newPage();
      await visitor.goto("/sign-in");
      for (let attempt = 1; attempt <= 5; attempt++) {
        const answer = await failSignIn(visitor, email, "not the password");
        expect(answer.status(), `${email} attempt ${attempt}`).toBe(401);
        expect(answer.headers()["ratelimit-policy"]).toBe('"sign-in-ip";q=1000;w=3600');
        await expect(visitor.getByText("Wrong e-mail or password.")).toBeVisible();
      }
      const locked = await failSignIn(visitor, email, PASSWORD);
      expect(locked.status()).toBe(429);
      expect(Number(locked.headers()["retry-after"])).toBeGreaterThan(0);
      expect(locked.headers()["content-type"]).toMatch(/^application\/problem\+json/);
      expect(await locked.json()).toMatchObject({ type: "urn:referloop:problem:rate-limited", status: 429 });
      await expect(visitor.getByText("Too many sign-in attempts. Wait a few minutes, then try again.")).toBeVisible();
      await expect(visitor).toHaveURL(/\/sign-in/);
      await context.close();
    }
  });
});
