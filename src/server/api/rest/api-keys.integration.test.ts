import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey, restClient, type RestClient } from "@/test/rest";
import { authenticateApiKey } from "@/server/domain/api-keys/authenticate-api-key";
import { CredentialCache } from "@/server/db/credential-cache";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { deleteApiKey } from "@/server/domain/api-keys/delete-api-key";
import { listApiKeys } from "@/server/domain/api-keys/list-api-keys";
import { hashToken } from "@/server/domain/tokens";

let t: TestDb;
let orgId: string;
let call: RestClient;

beforeAll(async () => {
  t = await createTestDb();
  const { org } = await createOrgWithApiKey(t.db);
  orgId = org.id;
  call = restClient(t.db);
});
afterAll(() => t.drop());

describe("API keys", () => {
  it("shows the full key once, stores only its hash, and lists it masked", async () => {
    const created = await createApiKey(t.db, orgId, { name: "CI", role: "member" }, null);
    expect(created.key).toMatch(/^rl_[A-Za-z0-9_-]{43}$/);
    expect(created.warning).toMatch(/only once/);
    const stored = await t.db.apiKey.findUniqueOrThrow({ where: { id: created.id } });
    expect(stored.keyHash).toBe(hashToken(created.key));
    expect(JSON.stringify(stored)).not.toContain(created.key);

    const list = await listApiKeys(t.db, orgId);
    expect(list.clientUniqueId).toBe(orgId);
    expect(list.clientId).toMatch(/^cl_/);
    const listed = list.keys.find((k) => k.id === created.id)!;
    expect(listed.key).not.toBe(created.key);
    expect(listed.key.startsWith(created.key.slice(0, 7))).toBe(true);
    expect(listed).toMatchObject({ name: "CI", role: "member", createdBy: null, expiresAt: null, lastUsedAt: null });
  });

  it("authenticates REST calls and records lastUsedAt without writing on every request", async () => {
    const { key, id } = await createApiKey(t.db, orgId, { name: "use", role: "readOnly" }, null);
    expect((await call("GET", "/projects", { apiKey: key })).status).toBe(200);
    const first = (await t.db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    await call("GET", "/projects", { apiKey: key });
    expect((await t.db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(first);
    // Past the resolution window the next request records the new time.
    const later = new Date(first!.getTime() + 61_000);
    await authenticateApiKey(t.db, key, new CredentialCache(), later);
    expect((await t.db.apiKey.findUniqueOrThrow({ where: { id } })).lastUsedAt).toEqual(later);
  });

  it("answers 401 problems for missing, malformed, unknown, expired and deleted keys", async () => {
    const expired = await createApiKey(t.db, orgId, { name: "old", role: "owner", expiresAt: new Date(Date.now() - 1000) }, null);
    const deleted = await createApiKey(t.db, orgId, { name: "gone", role: "owner" }, null);
    const deletion = await deleteApiKey(t.db, orgId, deleted.id);
    expect(deletion).toMatchObject({ message: expect.any(String), deletedKeyId: deleted.id, deletedAt: expect.any(String) });

    const attempts: [string, Record<string, string>][] = [
      ["missing", {}],
      ["not bearer", { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` }],
      ["empty bearer", { authorization: "Bearer " }],
      ["unknown", { authorization: "Bearer rl_thisKeyDoesNotExistAnywhere00000000000000000" }],
      ["expired", { authorization: `Bearer ${expired.key}` }],
      ["deleted", { authorization: `Bearer ${deleted.key}` }],
    ];
    for (const [label, headers] of attempts) {
      const res = await call("GET", "/projects", { headers, apiKey: null });
      expect(res.status, label).toBe(401);
      expect(res.headers.get("content-type"), label).toMatch(/^application\/problem\+json/);
      expect(res.json, label).toMatchObject({ status: 401, type: "urn:referloop:problem:unauthorized" });
    }
    const write = await call("POST", "/projects", { apiKey: null, body: { name: "x" } });
    expect(write.status).toBe(401);
    expect(await t.db.project.count()).toBe(0);
  });

  it("deleting another organisation's key is not found", async () => {
    const { org: otherOrg, apiKeyId } = await createOrgWithApiKey(t.db);
    await expect(deleteApiKey(t.db, orgId, apiKeyId)).rejects.toMatchObject({ kind: "not_found" });
    expect(await t.db.apiKey.count({ where: { organizationId: otherOrg.id } })).toBe(1);
  });
});
