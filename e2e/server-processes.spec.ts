import { spawn } from "node:child_process";
import { expect, test } from "@playwright/test";

/*
 * REFERLOOP_WORKERS: one server, several processes sharing the port (PostgreSQL only). Requests reach
 * both processes, /metrics answers the figures of all of them together, and SIGTERM stops the lot.
 */
const port = Number(process.env.E2E_PORT ?? 3100) + 5;
const base = `http://127.0.0.1:${port}`;
const TOKEN = "e2e-metrics-token-not-for-production";

test("two server processes share the port, their metrics are summed, and SIGTERM stops both", async () => {
  test.skip(!process.env.DATABASE_URL, "several processes need PostgreSQL (the embedded database runs one)");
  test.setTimeout(240_000);
  const server = spawn(process.execPath, ["--enable-source-maps", "dist/server/server.mjs", "-p", String(port), "-H", "127.0.0.1"], {
    env: { ...process.env, NODE_ENV: "production", REFERLOOP_WORKERS: "2", METRICS_TOKEN: TOKEN, NEXTAUTH_SECRET: "e2e-secret-not-for-production", REFERLOOP_ENCRYPTION_KEY: "e2e-encryption-key-not-for-production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  server.stdout!.on("data", (chunk) => (output += chunk));
  server.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => server.once("exit", (code) => resolve(code)));
  try {
    // Both processes listening (each logs it), then ready.
    await expect.poll(() => (output.match(/"msg":"listening"/g) ?? []).length, { timeout: 180_000 }).toBe(2);
    // The project's own Node (the `node` dev dependency), whatever the system's is: each process says which.
    const started = [...output.matchAll(/"node":"v(\d+)\.[^"]*"[^\n]*"msg":"listening"/g)].map((m) => Number(m[1]));
    expect(started).toHaveLength(2);
    for (const major of started) expect(major).toBeGreaterThanOrEqual(24);
    await expect.poll(() => fetch(`${base}/readyz`).then((r) => r.status, () => 0), { timeout: 60_000 }).toBe(200);

    // Fresh connections, so the kernel hands them to either process.
    const sent = 40;
    for (let i = 0; i < sent; i++) expect((await fetch(`${base}/healthz`, { headers: { connection: "close" } })).status).toBe(200);
    // The access log gathers its lines for up to 250 ms before writing them: wait for them.
    const servedBy = () => new Set([...output.matchAll(/"pid":(\d+),"method":"GET","route":"\/healthz"/g)].map((m) => m[1])).size;
    await expect.poll(servedBy, { timeout: 10_000 }).toBe(2);

    expect((await fetch(`${base}/metrics`)).status).toBe(401);
    const metrics = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();
    const healthz = Number(/referloop_http_requests_total\{method="GET",route="\/healthz",status="200"\} (\d+)/.exec(metrics)?.[1]);
    expect(healthz).toBe(sent);
    expect(metrics).toMatch(/^referloop_deliveries_due \d+$/m);
    expect(Number(/^nodejs_version_info\{version="v(\d+)\./m.exec(metrics)?.[1])).toBeGreaterThanOrEqual(24);
  } finally {
    server.kill("SIGTERM");
    expect(await exited).toBe(0);
  }
  expect((output.match(/"msg":"stopped"/g) ?? []).length).toBe(2);
});
