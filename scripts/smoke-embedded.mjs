#!/usr/bin/env node
/**
 * Smoke test of the embedded default: the production build with no DATABASE_URL, on a fresh data
 * folder. The admin command bootstraps an account and API key, then the running app takes a sign-up
 * over HTTP and creates and lists a project over REST.
 */
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const port = Number(process.env.SMOKE_PORT ?? 3101);
const base = `http://127.0.0.1:${port}`;
const dataDir = mkdtempSync(path.join(tmpdir(), "referloop-smoke-"));
// Every guard at its default (nothing relaxed); e-mailed links are built on NEXTAUTH_URL.
const env = { ...process.env, REFERLOOP_DATA_DIR: dataDir, NEXTAUTH_URL: base };
delete env.DATABASE_URL;
delete env.NEXTAUTH_SECRET;

let server;
try {
  const out = execFileSync("npx", ["tsx", "scripts/admin.ts", "bootstrap", "--email", "smoke@example.com", "--password", "smoke-password", "--org", "Smoke"], { env, encoding: "utf8" });
  const boot = JSON.parse(out.trim().split("\n").at(-1));
  assert.match(boot.apiKey, /^rl_/, "bootstrap prints an API key");

  // The README's command, as a user runs it.
  server = spawn("npm", ["start", "--", "-p", String(port), "-H", "127.0.0.1"], { env, stdio: ["ignore", "inherit", "inherit"], detached: true });
  await waitFor(`${base}/api/v1/openapi.json`, 60_000);

  const signUp = await fetch(`${base}/api/trpc/accounts.signUp`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: base },
    body: JSON.stringify({ email: "newcomer@example.com", password: "a-good-password", organizationName: "Newcomer Ltd" }),
  });
  assert.equal(signUp.status, 200, `sign-up answers 200, got ${signUp.status}: ${await signUp.clone().text()}`);
  assert.ok(existsSync(path.join(dataDir, "auth-secret")), "the auth secret is generated into the data folder");

  const auth = { authorization: `Bearer ${boot.apiKey}`, "content-type": "application/json" };
  const created = await fetch(`${base}/api/v1/public/projects`, { method: "POST", headers: auth, body: JSON.stringify({ name: "Smoke app", appType: "Web" }) });
  assert.equal(created.status, 201, `project create answers 201, got ${created.status}: ${await created.clone().text()}`);
  const project = await created.json();
  assert.match(project.projectSecret, /^sk_/);

  const list = await (await fetch(`${base}/api/v1/public/projects`, { headers: auth })).json();
  assert.deepEqual(list.map((p) => p.uniqueId), [project.uniqueId]);
  assert.ok(existsSync(path.join(dataDir, "pglite")), "the embedded database lives in the data folder");
  console.log("embedded default smoke test: 1 passed, 0 failed");
} finally {
  if (server?.pid) {
    try {
      process.kill(-server.pid, "SIGTERM");
    } catch {}
  }
  await new Promise((r) => setTimeout(r, 500));
  rmSync(dataDir, { recursive: true, force: true });
}

async function waitFor(url, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {}
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 300));
  }
}
