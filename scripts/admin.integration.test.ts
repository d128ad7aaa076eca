import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { authenticateApiKey } from "@/server/domain/api-keys/authenticate-api-key";
import { createTestDb, type TestDb } from "@/test/db";

const run = promisify(execFile);
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

function bootstrap(...args: string[]) {
  return run("npx", ["tsx", "scripts/admin.ts", "bootstrap", ...args], {
    env: { ...process.env, DATABASE_URL: t.url ?? "" },
  });
}

describe("npm run admin -- bootstrap", () => {
  it("creates the account, organisation and an API key, printing one line of JSON", async () => {
    if (!t.url) return; // embedded run: the smoke test covers the command on PGlite
    const { stdout } = await bootstrap("--email", "Boot@Example.com", "--password", "bootstrap-pass", "--org", "Boot Org");
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const first = JSON.parse(lines[0]!);
    expect(first).toEqual({ userId: expect.any(String), organizationId: expect.any(String), apiKey: expect.stringMatching(/^rl_/) });
    expect(await authenticateApiKey(t.db, first.apiKey)).toMatchObject({ organizationId: first.organizationId });

    const again = JSON.parse((await bootstrap("--email", "boot@example.com", "--password", "bootstrap-pass", "--org", "Boot Org")).stdout);
    expect(again.userId).toBe(first.userId);
    expect(again.organizationId).toBe(first.organizationId);
    expect(again.apiKey).not.toBe(first.apiKey);
    expect(await t.db.organization.count()).toBe(1);

    await expect(bootstrap("--email", "boot@example.com", "--password", "wrong-password", "--org", "Boot Org")).rejects.toMatchObject({ code: 1 });
    await expect(bootstrap("--email", "x@example.com")).rejects.toMatchObject({ code: 2 });
  }, 60_000);
});
