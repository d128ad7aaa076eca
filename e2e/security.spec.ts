import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test, type APIResponse } from "@playwright/test";
import { E2E_RELAXATIONS } from "../playwright.config";
import { createApiKey, createProject, openProjectTab, PASSWORD, signUp, uniqueEmail, watchCsp } from "./helpers";

/** The e2e server runs the production build over http, with the guards that forbid that relaxed (E2E_RELAXATIONS). */
const port = Number(process.env.E2E_PORT ?? 3100);

function expectDashboardHeaders(headers: Record<string, string>) {
  const csp = headers["content-security-policy"] ?? "";
  expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{20,}' 'strict-dynamic'(;|$)/);
  expect(csp).toContain("frame-ancestors 'none'");
  expect(csp).toContain("object-src 'none'");
  expect(csp).not.toContain("unsafe-eval");
  expect(headers["x-frame-options"]).toBe("DENY");
  expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["permissions-policy"]).toContain("camera=()");
}

test.describe("secure headers", () => {
  test("dashboard pages carry the CSP and frame rules, with a fresh nonce each time; the API, /sdk/ and /r/ only nosniff", async ({ request }) => {
    for (const pathname of ["/sign-in", "/sign-up", "/dashboard", "/", "/forgot-password", "/reset-password?token=x", "/verify-email?token=x", "/invitations/x"]) {
      const res = await request.get(pathname, { maxRedirects: 0 });
      expectDashboardHeaders(res.headers());
      // REFERLOOP_DISABLE_HSTS: no HSTS, no upgrade of requests to https.
      expect(res.headers()["strict-transport-security"]).toBeUndefined();
      expect(res.headers()["content-security-policy"]).not.toContain("upgrade-insecure-requests");
    }
    const nonce = (res: APIResponse) => /'nonce-([^']+)'/.exec(res.headers()["content-security-policy"] ?? "")?.[1];
    const first = await request.get("/sign-in");
    const second = await request.get("/sign-in");
    expect(nonce(first)).not.toBe(nonce(second));
    // Next.js put the nonce on its scripts.
    expect(await first.text()).toContain(`nonce="${nonce(first)}"`);

    const api = await request.get("/api/v1/openapi.json");
    expect(api.headers()["x-content-type-options"]).toBe("nosniff");
    expect(api.headers()["content-security-policy"]).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers()["x-frame-options"]).toBeUndefined();
    for (const pathname of ["/sdk/v1/widget.js", "/r/some-code"]) {
      const res = await request.get(pathname);
      expect(res.headers()["x-content-type-options"], pathname).toBe("nosniff");
      expect(res.headers()["x-frame-options"], pathname).toBeUndefined();
    }
    expect((await request.get("/sdk/v1/widget.js")).headers()["content-security-policy"]).toBeUndefined();
    // Landing pages, the "not found" one included, carry their own strict nonce CSP.
    expect((await request.get("/r/some-code")).headers()["content-security-policy"]).toMatch(/^default-src 'none'.*'nonce-/);
  });

  test("responses that carry a secret are never cached: tRPC and the REST creates and rotation", async ({ page, request }) => {
    await signUp(page);
    const trpc = await page.request.get("/api/trpc/accounts.me");
    expect(trpc.status()).toBe(200);
    expect(trpc.headers()["cache-control"]).toBe("no-store");

    const apiKey = await createApiKey(page);
    const auth = { Authorization: `Bearer ${apiKey}` };
    const created = await request.post("/api/v1/public/projects", { headers: auth, data: { name: "No store", appType: "Web" } });
    expect(created.status()).toBe(201);
    expect(created.headers()["cache-control"]).toBe("no-store");
    const project = (await created.json()) as { uniqueId: string };
    const rotated = await request.post(`/api/v1/public/projects/${project.uniqueId}/rotate-secret`, { headers: auth });
    expect(rotated.headers()["cache-control"]).toBe("no-store");
    const campaign = (await (await request.get(`/api/v1/public/projects/${project.uniqueId}/campaign`, { headers: auth })).json()) as { campaignId: string };
    const webhook = await request.post(`/api/v1/public/projects/${project.uniqueId}/webhooks/${campaign.campaignId}`, {
      headers: auth,
      data: { name: "Hook", url: "https://hooks.example.com/x" },
    });
    expect(webhook.status()).toBe(201);
    expect(webhook.headers()["cache-control"]).toBe("no-store");
    const read = await request.get(`/api/v1/public/projects/${project.uniqueId}`, { headers: auth });
    expect(read.headers()["cache-control"]).toBeUndefined();
  });

  test("the dashboard renders and works under the CSP in Chromium, with no violation reported", async ({ page }) => {
    const violations = await watchCsp(page);
    await page.goto("/sign-up");
    // A script without this response's nonce does not run.
    await page.evaluate(() => {
      const meta = document.createElement("div");
      meta.innerHTML = `<img src="x" onerror="window.__inlineRan = true">`;
      document.body.append(meta);
    });
    await expect.poll(() => violations.some((v) => v.startsWith("script-src"))).toBe(true);
    expect(await page.evaluate(() => (window as unknown as { __inlineRan?: boolean }).__inlineRan)).toBeUndefined();
    violations.length = 0;

    // Sign-up (client-side checks, then the server), the dashboard, a project with its campaign preview.
    const email = await signUp(page);
    const projectId = await createProject(page, { name: "CSP shop" });
    await openProjectTab(page, projectId, "Campaign");
    await openProjectTab(page, projectId, "Webhooks");
    await page.goto("/dashboard/api-reference");
    await expect(page.getByRole("heading", { name: "API reference", level: 1 })).toBeVisible();

    // Sign out and in again.
    await page.context().clearCookies();
    await page.goto("/sign-in");
    await page.getByLabel("E-mail").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole("heading", { name: "Projects", level: 1 })).toBeVisible();
    expect(violations).toEqual([]);
  });
});

test.describe("dashboard changes from another site", () => {
  test("a cross-site multipart POST to accounts.signOutEverywhere is refused (403 problem); the session and the dashboard still work", async ({ page, baseURL }) => {
    await signUp(page);
    // The browser's own cookies ride along (page.request shares them), as they would if SameSite did not hold them back.
    const attack = await page.request.post("/api/trpc/accounts.signOutEverywhere", {
      multipart: { anything: "1" },
      headers: { Origin: "https://evil.example.net", "Sec-Fetch-Site": "cross-site" },
    });
    expect(attack.status()).toBe(403);
    expect(attack.headers()["content-type"]).toBe("application/problem+json; charset=utf-8");
    expect(await attack.json()).toMatchObject({ status: 403, type: "urn:referloop:problem:forbidden" });
    // JSON from another origin, and a form from the app's own origin: refused too (403, 415).
    const json = await page.request.post("/api/trpc/accounts.signOutEverywhere", { data: {}, headers: { Origin: "https://evil.example.net" } });
    expect(json.status()).toBe(403);
    const ownForm = await page.request.post("/api/trpc/accounts.signOutEverywhere", { multipart: { anything: "1" }, headers: { Origin: baseURL! } });
    expect(ownForm.status()).toBe(415);
    expect((await ownForm.json()).type).toBe("urn:referloop:problem:unsupported-media-type");
    // next-auth's sign-out, posted from another site.
    const signOut = await page.request.post("/api/auth/signout", { form: { csrfToken: "x", json: "true" }, headers: { Origin: "https://evil.example.net" } });
    expect(signOut.status()).toBe(403);

    // Still signed in; the dashboard's own changes (JSON, its own origin) go through.
    expect((await page.request.get("/api/trpc/accounts.me")).status()).toBe(200);
    const projectId = await createProject(page, { name: "After the attack" });
    await openProjectTab(page, projectId, "Campaign");
    // Signing out from the dashboard itself works.
    await page.goto("/dashboard/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    expect((await page.request.get("/api/trpc/accounts.me")).status()).toBe(401);
  });
});

/** Another server (as `npm start` runs it) of the same build with its own environment, stopped at the end of the test. */
function startServer(serverPort: number, env: Record<string, string | undefined>) {
  const fullEnv = { ...process.env, ...env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete fullEnv[name];
  const child: ChildProcess = spawn(process.execPath, ["--enable-source-maps", "dist/server/server.mjs", "-p", String(serverPort), "-H", "127.0.0.1"], {
    env: { ...fullEnv, NODE_ENV: "production" },
    detached: true,
  });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return {
    output: () => output,
    exited,
    async stop() {
      if (child.exitCode === null && child.pid) process.kill(-child.pid, "SIGTERM");
      await exited;
    },
  };
}

async function waitForServer(base: string) {
  await expect.poll(() => fetch(`${base}/healthz`).then((r) => r.status, () => 0), { timeout: 120_000 }).toBe(200);
}

/** Every relaxation of the e2e server unset: each guard at its default. */
const NO_RELAXATIONS = Object.fromEntries(Object.keys(E2E_RELAXATIONS).map((name) => [name, undefined]));

test.describe("every guard at its default", () => {
  // Each test starts a server of its own.
  test.describe.configure({ timeout: 180_000 });
  test("HSTS, upgrade-insecure-requests, a Secure session cookie and no mailbox, even with an http NEXTAUTH_URL", async () => {
    const productionPort = port + 2;
    const base = `http://127.0.0.1:${productionPort}`;
    const dataDir = mkdtempSync(path.join(tmpdir(), "referloop-e2e-production-"));
    const server = startServer(productionPort, {
      ...NO_RELAXATIONS,
      REFERLOOP_DATA_DIR: dataDir,
      DATABASE_URL: undefined,
      NEXTAUTH_URL: base,
      NEXTAUTH_SECRET: undefined,
      REFERLOOP_ENCRYPTION_KEY: undefined,
    });
    try {
      await waitForServer(base);
      const page = await fetch(`${base}/sign-in`);
      expect(page.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains");
      expect(page.headers.get("content-security-policy")).toContain("upgrade-insecure-requests");
      // The development mailbox does not exist without its own setting, even for a loopback client.
      expect((await fetch(`${base}/dev/mail`)).status).toBe(404);
      // Nothing relaxed, nothing announced (the start's lines written: the log gathers them up to 250 ms).
      await expect.poll(() => server.output()).toContain('"msg":"listening"');
      expect(server.output()).not.toContain("guard relaxed");

      const email = uniqueEmail("secure");
      const signUpResponse = await fetch(`${base}/api/trpc/accounts.signUp`, {
        method: "POST",
        headers: { "content-type": "application/json", origin: base },
        body: JSON.stringify({ email, password: PASSWORD, organizationName: "Secure Ltd" }),
      });
      expect(signUpResponse.status).toBe(200);

      const csrf = await fetch(`${base}/api/auth/csrf`);
      const { csrfToken } = (await csrf.json()) as { csrfToken: string };
      const csrfCookie = csrf.headers.getSetCookie().find((c) => c.startsWith("__Host-next-auth.csrf-token="));
      expect(csrfCookie).toMatch(/; Secure/i);
      const signIn = await fetch(`${base}/api/auth/callback/credentials`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie!.split(";")[0]! },
        body: new URLSearchParams({ csrfToken, email, password: PASSWORD, json: "true" }),
      });
      const session = signIn.headers.getSetCookie().find((c) => c.includes("session-token="));
      expect(session).toMatch(/^__Secure-next-auth\.session-token=/);
      expect(session).toMatch(/; Secure/i);
      expect(session).toMatch(/; HttpOnly/i);
    } finally {
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test("refuses to start on PostgreSQL without NEXTAUTH_SECRET and REFERLOOP_ENCRYPTION_KEY, saying how to make them", async () => {
    const server = startServer(port + 3, {
      NODE_ENV: "production",
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/postgres",
      NEXTAUTH_SECRET: undefined,
      REFERLOOP_ENCRYPTION_KEY: undefined,
    });
    try {
      expect(await server.exited).toBe(1);
      expect(server.output()).toContain("Set NEXTAUTH_SECRET and REFERLOOP_ENCRYPTION_KEY before starting in production on PostgreSQL");
      expect(server.output()).toContain("openssl rand -base64 32");
    } finally {
      await server.stop();
    }
  });
});
