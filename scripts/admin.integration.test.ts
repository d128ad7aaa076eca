import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWebhookBody } from "@/lib/schemas/webhooks";
import { authenticateApiKey } from "@/server/domain/api-keys/authenticate-api-key";
import { CredentialCache } from "@/server/db/credential-cache";
import { createWebhook } from "@/server/domain/webhooks/create-webhook";
import { decryptSecret, encryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject } from "@/test/fixtures";

const run = promisify(execFile);
/** Each test starts the command (a cold tsx start) several times: a busy VM needed over a minute. */
const SLOW_START_MS = 180_000;
let t: TestDb;

beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

/** `npm run admin` is `tsx scripts/admin.ts`: the same, as one node process (no npx, no tsx CLI wrapper, about 1.5 s less a call). */
function admin(args: string[], env: Record<string, string> = {}) {
  return run(process.execPath, ["--import", "tsx", "scripts/admin.ts", ...args], { env: { ...process.env, DATABASE_URL: t.url ?? "", ...env } });
}
const bootstrap = (...args: string[]) => admin(["bootstrap", ...args]);

describe("npm run admin -- bootstrap", () => {
  it("creates the account, organisation and an API key, printing one line of JSON", async () => {
    if (!t.url) return; // embedded run: the smoke test covers the command on PGlite
    const { stdout } = await bootstrap("--email", "Boot@Example.com", "--password", "bootstrap-pass", "--org", "Boot Org");
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const first = JSON.parse(lines[0]!);
    expect(first).toEqual({ userId: expect.any(String), organizationId: expect.any(String), apiKey: expect.stringMatching(/^rl_/) });
    expect(await authenticateApiKey(t.db, first.apiKey, new CredentialCache())).toMatchObject({ organizationId: first.organizationId });

    const again = JSON.parse((await bootstrap("--email", "boot@example.com", "--password", "bootstrap-pass", "--org", "Boot Org")).stdout);
    expect(again.userId).toBe(first.userId);
    expect(again.organizationId).toBe(first.organizationId);
    expect(again.apiKey).not.toBe(first.apiKey);
    expect(await t.db.organization.count()).toBe(1);

    await expect(bootstrap("--email", "boot@example.com", "--password", "wrong-password", "--org", "Boot Org")).rejects.toMatchObject({ code: 1 });
    await expect(bootstrap("--email", "x@example.com")).rejects.toMatchObject({ code: 2 });
  }, SLOW_START_MS);
});

describe("npm run admin -- rate-limits", () => {
  it("shows and sets an organisation's own quotas: a number, 0 for none, default for the server's", async () => {
    if (!t.url) return; // embedded run: one process per PGlite folder
    const { org } = await createOrgWithProject(t.db);
    const show = async (...args: string[]) => JSON.parse((await admin(["rate-limits", "--org", org.id, ...args])).stdout);
    expect(await show()).toEqual({ organizationId: org.id, apiPerMinute: null, sdkPerMinute: null });
    expect(await show("--api", "1200", "--sdk", "0")).toEqual({ organizationId: org.id, apiPerMinute: 1200, sdkPerMinute: 0 });
    expect(await show("--sdk", "default")).toEqual({ organizationId: org.id, apiPerMinute: 1200, sdkPerMinute: null });
    expect(await t.db.organization.findUniqueOrThrow({ where: { id: org.id } })).toMatchObject({ apiRateLimitPerMinute: 1200, sdkRateLimitPerMinute: null });

    const bad = await admin(["rate-limits", "--org", org.id, "--api", "-5"]).catch((e: { code: number; stderr: string }) => e);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringContaining("--api") });
    const unknown = await admin(["rate-limits", "--org", "no-such-org"]).catch((e: { code: number; stderr: string }) => e);
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining("Organisation was not found") });
  }, SLOW_START_MS);
});

describe("npm run admin -- reencrypt-secrets", () => {
  // The tests' own key (vitest.config.ts) encrypts what createWebhook writes here: it is the old key.
  const KEY_A = testConfig().encryptionKey!;
  const KEY_B = "rotation-key-b-1111111111111111111111111111";
  const rotated = { REFERLOOP_ENCRYPTION_KEY: KEY_B, REFERLOOP_ENCRYPTION_KEY_PREVIOUS: KEY_A };
  const counts = async (env: Record<string, string>) => JSON.parse((await admin(["reencrypt-secrets"], env)).stdout);

  it("rewrites every webhook and project secret with the new key, is safe to rerun, and then the old key is not needed", async () => {
    if (!t.url) return; // embedded run: one process per PGlite folder, so the command cannot share the test's database
    const { org, project, projectSecret } = await createOrgWithProject(t.db);
    const campaign = await t.db.campaign.findFirstOrThrow({ where: { projectId: project.id } });
    const plains = ["first-webhook-secret", "second-webhook-secret"];
    for (const [i, secret] of plains.entries()) {
      const input = createWebhookBody.parse({ name: `Hook ${i}`, url: `https://hooks.example.com/${i}`, secret });
      await createWebhook(t.db, org.id, project.id, campaign.id, input, testConfig().urlRules);
    }
    // The first webhook's secret was rotated with an overlap: its previous secret still signs meanwhile.
    const first = await t.db.webhook.findFirstOrThrow({ where: { name: "Hook 0" } });
    const previous = "previous-webhook-secret";
    await t.db.webhook.update({
      where: { id: first.id },
      data: { previousSecretEncrypted: encryptSecret(previous, { current: KEY_A }), previousSecretExpiresAt: new Date(Date.now() + 3_600_000), updatedAt: first.updatedAt },
    });
    const before = await t.db.webhook.findMany({ orderBy: { name: "asc" } });

    // The two webhook secrets, the overlap's previous one and every project's secret (kept for identity verification).
    const total = plains.length + 1 + (await t.db.project.count({ where: { secretEncrypted: { not: null } } }));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(await counts(rotated)).toEqual({ total, reencrypted: total, alreadyCurrent: 0, unreadable: 0 });
    expect(await counts(rotated)).toEqual({ total, reencrypted: 0, alreadyCurrent: total, unreadable: 0 });
    const stored = await t.db.project.findUniqueOrThrow({ where: { id: project.id } });
    expect(decryptSecret(stored.secretEncrypted!, { current: KEY_B })).toBe(projectSecret);
    expect(stored.updatedAt).toEqual(project.updatedAt);

    // Only the new key from now on: every secret still decrypts, and the webhooks look unchanged.
    const after = await t.db.webhook.findMany({ orderBy: { name: "asc" } });
    expect(after.map((w) => decryptSecret(w.secretEncrypted, { current: KEY_B }))).toEqual(plains);
    expect(after.map((w) => w.secretEncrypted)).not.toEqual(before.map((w) => w.secretEncrypted));
    expect(after.map((w) => w.updatedAt)).toEqual(before.map((w) => w.updatedAt));
    expect(decryptSecret(after[0]!.secretEncrypted, { current: KEY_A })).toBeNull();
    expect(decryptSecret(after[0]!.previousSecretEncrypted!, { current: KEY_B })).toBe(previous);

    // A secret under a key nobody configured is reported, left as it is, and fails the command.
    const lost = encryptSecret("lost-webhook-secret", { current: "a-key-that-was-lost" });
    await t.db.webhook.update({ where: { id: after[0]!.id }, data: { secretEncrypted: lost } });
    const failed = await admin(["reencrypt-secrets"], rotated).catch((e: { code: number; stdout: string; stderr: string }) => e);
    expect(failed).toMatchObject({ code: 1, stderr: expect.stringContaining("1 secret(s) could not be decrypted") });
    expect(JSON.parse(failed.stdout)).toEqual({ total, reencrypted: 0, alreadyCurrent: total - 1, unreadable: 1 });
    expect((await t.db.webhook.findUniqueOrThrow({ where: { id: after[0]!.id } })).secretEncrypted).toBe(lost);
  }, SLOW_START_MS);

  it("refuses to run in production on PostgreSQL without the secrets, saying how to make them", async () => {
    if (!t.url) return;
    const refused = await admin(["reencrypt-secrets"], { NODE_ENV: "production", NEXTAUTH_SECRET: "", REFERLOOP_ENCRYPTION_KEY: "" }).catch(
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining("Set NEXTAUTH_SECRET and REFERLOOP_ENCRYPTION_KEY") });
    expect((refused as { stderr: string }).stderr).toContain("openssl rand -base64 32");
  }, 30_000);
});
