import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { authenticateApiKey } from "@/server/domain/api-keys/authenticate-api-key";
import { authenticateProjectKey } from "@/server/domain/projects/authenticate-project-key";
import { rotateProjectSecret } from "@/server/domain/projects/rotate-project-secret";
import { createProject } from "@/server/domain/projects/create-project";
import { anyProjectAllows } from "@/server/api/rest/sdk-cors";
import { testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithProject, type OrgWithProject } from "@/test/fixtures";
import { waitUntil } from "@/test/wait";
import { restClient } from "@/test/rest";
import { createSdkProject, sdkClient } from "@/test/sdk";
import { callerFor } from "@/test/sessions";
import { signUpForTest } from "@/test/accounts";
import { CredentialCache, followCredentialChanges } from "./credential-cache";

/*
 * Each "instance" is a cache with its own LISTEN connection to the test's database, as two app
 * processes would have. Changes are made through the domain functions or plain SQL, on neither.
 */

let t: TestDb;
let o: OrgWithProject;
const followers: { close(): Promise<void> }[] = [];
beforeAll(async () => {
  t = await createTestDb();
  o = await createOrgWithProject(t.db);
});
afterAll(async () => {
  await Promise.all(followers.map((f) => f.close()));
  await t?.drop();
});

async function instance() {
  const cache = new CredentialCache();
  followers.push(followCredentialChanges(t.url!, cache));
  await waitUntil(async () => cache.listening, Boolean, { what: "the listener" });
  return cache;
}

const newKey = async (role: "member" | "readOnly" = "member") => (await createApiKey(t.db, o.org.id, { name: "cached", role }, null)).key;
const apiKey = (key: string, credentials: CredentialCache) => authenticateApiKey(t.db, key, credentials);

describe("credential cache", () => {
  it("answers a known API key from memory, and every instance drops it once its deletion commits", async ({ skip }) => {
    if (!t.url) skip("PGlite: nothing listens, nothing is cached");
    const [a, b] = [await instance(), await instance()];
    const key = await newKey();
    expect(await apiKey(key, a)).toMatchObject({ organizationId: o.org.id, role: "member" });
    expect(await apiKey(key, a)).toMatchObject({ organizationId: o.org.id });
    expect(await apiKey(key, b)).toMatchObject({ organizationId: o.org.id });
    expect([a.hits, b.hits]).toEqual([1, 0]);

    await t.db.apiKey.deleteMany({ where: { organizationId: o.org.id } });
    for (const cache of [a, b]) await waitUntil(() => apiKey(key, cache), (found) => found === null, { what: "the deleted key refused" });
  });

  it("sees a role change at once, and keeps the entry through a usage-time write", async ({ skip }) => {
    if (!t.url) skip("PGlite: nothing listens, nothing is cached");
    const a = await instance();
    const key = await newKey("member");
    await apiKey(key, a);
    // Only lastUsedAt changes (the trigger ignores it): the next calls are still answered from memory.
    await t.db.apiKey.updateMany({ where: { organizationId: o.org.id }, data: { lastUsedAt: new Date(0) } });
    await new Promise((r) => setTimeout(r, 200));
    const hits = a.hits;
    await apiKey(key, a);
    await apiKey(key, a);
    expect(a.hits).toBe(hits + 2);

    await t.db.$executeRaw`UPDATE "ApiKey" SET "role" = 'readOnly' WHERE "organizationId" = ${o.org.id}`;
    await waitUntil(() => apiKey(key, a), (found) => found?.role === "readOnly", { what: "the new role" });
  });

  it("a member's key works only while they are a member, never above their role, on every instance", async ({ skip }) => {
    if (!t.url) skip("PGlite: nothing listens, nothing is cached");
    const [a, b] = [await instance(), await instance()];
    const anonymous = await callerFor(t.db, null);
    const creator = await signUpForTest(t.db, anonymous, `cache-member-${Date.now()}@example.com`);
    await t.db.membership.create({ data: { userId: creator.userId, organizationId: o.org.id, role: "member" } });
    const { key } = await createApiKey(t.db, o.org.id, { name: "member's", role: "member" }, { userId: creator.userId, email: creator.email });
    for (const cache of [a, b]) await apiKey(key, cache);
    expect(await apiKey(key, a)).toMatchObject({ role: "member" });
    // Behind the removal and the role change (which revoke or lower the keys themselves): the key is
    // read with its creator's membership, so a membership changed by any writer is seen too.
    await t.db.$executeRaw`UPDATE "Membership" SET "role" = 'viewer' WHERE "userId" = ${creator.userId} AND "organizationId" = ${o.org.id}`;
    for (const cache of [a, b]) await waitUntil(() => apiKey(key, cache), (found) => found?.role === "readOnly", { what: "the creator's new role" });
    await t.db.$executeRaw`DELETE FROM "Membership" WHERE "userId" = ${creator.userId} AND "organizationId" = ${o.org.id}`;
    for (const cache of [a, b]) await waitUntil(() => apiKey(key, cache), (found) => found === null, { what: "the former member's key refused" });
  });

  it("drops a cached project when its secret is rotated or its settings change", async ({ skip }) => {
    if (!t.url) skip("PGlite: nothing listens, nothing is cached");
    const a = await instance();
    const { projectSecret } = o;
    expect((await authenticateProjectKey(t.db, projectSecret, a))?.project.id).toBe(o.project.id);
    const { publishableKey } = await t.db.project.findUniqueOrThrow({ where: { id: o.project.id } });
    expect((await authenticateProjectKey(t.db, publishableKey, a))?.project.allowedOrigins).toEqual([]);
    await authenticateProjectKey(t.db, publishableKey, a);
    expect(a.hits).toBe(1);

    await t.db.project.update({ where: { id: o.project.id }, data: { allowedOrigins: ["https://shop.example"] } });
    await waitUntil(() => authenticateProjectKey(t.db, publishableKey, a), (found) => found?.project.allowedOrigins[0] === "https://shop.example", {
      what: "the new allowed origin",
    });
    await rotateProjectSecret(t.db, o.org.id, o.project.id);
    await waitUntil(() => authenticateProjectKey(t.db, projectSecret, a), (found) => found === null, { what: "the rotated secret refused" });
  });

  it("holds the origins projects allow for preflights, and drops them when a project adds or removes one", async ({ skip }) => {
    if (!t.url) skip("PGlite: nothing listens, nothing is cached");
    const a = await instance();
    const allows = (origin: string) => anyProjectAllows(t.db, a, origin);
    expect(await allows("https://new.example")).toBe(false);
    expect(await allows("https://new.example")).toBe(false);
    expect(a.hits).toBe(1);
    // A new project (an INSERT) whose origin joins the set.
    const created = await createProject(t.db, o.org.id, { name: "Second", appType: "Web", referralRedirectLink: "https://new.example/join", allowedOrigins: ["https://new.example"] }, testConfig().urlRules);
    await waitUntil(() => allows("https://new.example"), Boolean, { what: "the new project's origin allowed" });
    await t.db.project.update({ where: { id: created.project.id }, data: { allowedOrigins: [] } });
    await waitUntil(() => allows("https://new.example"), (allowed) => !allowed, { what: "the removed origin refused" });
  });

  it("caches nothing while its listener is lost, and again once it is back", async ({ skip }) => {
    if (!t.url) skip("PGlite: nothing listens, nothing is cached");
    const a = await instance();
    const key = await newKey();
    await apiKey(key, a);
    await apiKey(key, a);
    expect(a.hits).toBe(1);
    const database = new URL(t.url!).pathname.slice(1);
    await t.db.$executeRaw`SELECT pg_terminate_backend("pid") FROM pg_stat_activity WHERE "application_name" = 'referloop-credentials' AND "datname" = ${database}`;
    await waitUntil(async () => a.listening, (listening) => !listening, { what: "the lost listener noticed" });
    await apiKey(key, a);
    await apiKey(key, a);
    expect(a.hits).toBe(1);
    await waitUntil(async () => a.listening, Boolean, { what: "the listener back" });
    await apiKey(key, a);
    await apiKey(key, a);
    expect(a.hits).toBe(2);
  });

  it("stores nothing a change overtook, and never an unknown key", async () => {
    const cache = new CredentialCache();
    cache.setListening(true);
    let loads = 0;
    let release!: () => void;
    const slow = () => new Promise<{ n: number }>((resolve) => (release = () => resolve({ n: ++loads })));
    const pending = cache.read("k", slow);
    cache.clear(); // a change committed while the lookup was on its way
    release();
    expect(await pending).toEqual({ n: 1 });
    const again = cache.read("k", slow);
    release();
    expect(await again).toEqual({ n: 2 });
    expect(await cache.read("k", slow)).toEqual({ n: 2 });

    let unknownLoads = 0;
    const unknown = async () => (unknownLoads++, null);
    await cache.read("nope", unknown);
    await cache.read("nope", unknown);
    expect(unknownLoads).toBe(2);
  });
});

describe("the process that made a change", () => {
  /**
   * Listening, but the change's notification has not come back yet (here: never does): what the
   * process that wrote the change holds between its commit and the NOTIFY's arrival.
   */
  function deafCache() {
    const cache = new CredentialCache();
    cache.setListening(true);
    return cache;
  }

  it("sees its own change at once: identity verification turned on, a secret rotated, a publishable key rotated", async () => {
    const credentials = deafCache();
    const owner = (await createApiKey(t.db, o.org.id, { name: "owner", role: "owner" }, null)).key;
    const rest = restClient(t.db, owner, { credentials });
    const sdk = sdkClient(t.db, { credentials });
    const project = await createSdkProject(rest);
    const init = (key: string, userId: string) => sdk("init-app-user", { key, body: { userId } });
    expect((await init(project.publishableKey, "before")).status).toBe(200);
    expect((await init(project.secret, "before")).status).toBe(200);
    expect(credentials.hits).toBe(0);
    expect((await init(project.publishableKey, "cached")).status).toBe(200);
    expect(credentials.hits).toBe(1);

    expect((await rest("PUT", `/projects/${project.projectId}`, { body: { identityVerification: true } })).status).toBe(200);
    const unverified = await init(project.publishableKey, "after");
    expect(unverified.status, unverified.text).toBe(401);
    expect(unverified.json.detail).toMatch(/requires identity verification/);

    expect((await init(project.secret, "cached")).status).toBe(200);
    expect((await rest("POST", `/projects/${project.projectId}/rotate-secret`)).status).toBe(200);
    expect((await init(project.secret, "after")).status).toBe(401);

    const rotated = await rest("POST", `/projects/${project.projectId}/rotate-publishable-key`);
    expect(rotated.status).toBe(200);
    expect((await init(project.publishableKey, "after")).status).toBe(401);
  });

  it("sees its own change at once: an API key deleted", async () => {
    const credentials = deafCache();
    const anonymous = await callerFor(t.db, null);
    const owner = await signUpForTest(t.db, anonymous, `cache-${Date.now()}@example.com`);
    const dashboard = await callerFor(t.db, owner.session, owner.organizationId, { credentials });
    const key = await dashboard.apiKeys.create({ name: "short-lived", role: "member" });
    const rest = restClient(t.db, key.key, { credentials });
    expect((await rest("GET", "/projects")).status).toBe(200);
    expect((await rest("GET", "/projects")).status).toBe(200);
    expect(credentials.hits).toBeGreaterThan(0);
    await dashboard.apiKeys.delete({ id: key.id });
    expect((await rest("GET", "/projects")).status).toBe(401);
  });
});
