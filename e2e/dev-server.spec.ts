import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";

/*
 * `npm run dev` serves through the same front door as `npm start` (src/server.ts): the REST API, the
 * OpenAPI document, the widget's files and the dashboard from one process, on the embedded database.
 * Slow by nature (the dashboard compiles on first request), so it has minutes.
 */
const port = Number(process.env.E2E_PORT ?? 3100) + 4;
const base = `http://127.0.0.1:${port}`;

test("npm run dev answers the API, the document, the widget and the dashboard through the one server", async () => {
  test.setTimeout(300_000);
  const dataDir = mkdtempSync(path.join(tmpdir(), "referloop-e2e-dev-"));
  const env: NodeJS.ProcessEnv = { ...process.env, REFERLOOP_DATA_DIR: dataDir, PORT: String(port), HOSTNAME: "127.0.0.1" };
  for (const name of ["DATABASE_URL", "NODE_ENV", "REFERLOOP_ENV", "NEXTAUTH_URL", "NEXTAUTH_SECRET"]) delete env[name];
  const boot = JSON.parse(
    execFileSync("npx", ["tsx", "scripts/admin.ts", "bootstrap", "--email", "dev@example.com", "--password", "a-dev-password-1", "--org", "Dev"], { env, encoding: "utf8" })
      .trim()
      .split("\n")
      .at(-1)!,
  ) as { apiKey: string };
  const server: ChildProcess = spawn("npm", ["run", "dev"], { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  server.stdout?.on("data", (chunk) => (output += chunk));
  server.stderr?.on("data", (chunk) => (output += chunk));
  try {
    await expect.poll(() => fetch(`${base}/healthz`).then((r) => r.status, () => 0), { timeout: 180_000, intervals: [500] }).toBe(200);

    const auth = { authorization: `Bearer ${boot.apiKey}`, "content-type": "application/json", "x-request-id": "dev-1" };
    const created = await fetch(`${base}/api/v1/public/projects`, { method: "POST", headers: auth, body: JSON.stringify({ name: "Dev app", appType: "Web" }) });
    expect(created.status, await created.clone().text()).toBe(201);
    expect(created.headers.get("x-request-id")).toBe("dev-1");
    expect(created.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    const unauthenticated = await fetch(`${base}/api/v1/public/projects`);
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get("content-type")).toContain("application/problem+json");

    const document = await fetch(`${base}/api/v1/openapi.json`);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\.1/);
    const widget = await fetch(`${base}/sdk/v1/referloop.js`);
    expect(widget.status).toBe(200);
    expect(widget.headers.get("content-type")).toBe("text/javascript; charset=utf-8");

    // The dashboard, compiled on demand, with the development CSP (eval for React's debugging aids).
    const page = await fetch(`${base}/sign-in`, { signal: AbortSignal.timeout(240_000) });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("'unsafe-eval'");
    expect(await page.text()).toContain("Sign in");
    // One structured line per request, pretty-printed in development (coloured when the runner forces colour).
    const plain = output.replace(/\u001b\[[0-9;]*m/g, "");
    expect(plain).toMatch(/INFO: request .*"route":"\/api\/v1\/public\/projects".*"status":201/);
  } catch (error) {
    console.log(output.slice(-4000));
    throw error;
  } finally {
    if (server.pid) process.kill(-server.pid, "SIGTERM");
    await new Promise((resolve) => server.once("exit", resolve));
    rmSync(dataDir, { recursive: true, force: true });
  }
});
