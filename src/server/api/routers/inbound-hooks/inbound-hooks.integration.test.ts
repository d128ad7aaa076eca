import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey } from "@/server/domain/api-keys/create-api-key";
import { decryptSecret } from "@/server/domain/webhooks/webhook-secret";
import { reencryptSecrets } from "@/server/domain/webhooks/reencrypt-secrets";
import { createTestDb, type TestDb } from "@/test/db";
import { createOrgWithApiKey, createProjectOverRest, expectProblem, restClient, type RestClient } from "@/test/rest";

let t: TestDb;
let call: RestClient;
let readOnly: RestClient;
let other: RestClient;
let projectId: string;

const base = () => `/projects/${projectId}/inbound-hooks`;
const STRIPE_SECRET = "whsec_test_0123456789abcdefghijklmnop";
const RC_AUTH = "Bearer rc-0123456789-abcdefghij";

beforeAll(async () => {
  t = await createTestDb();
  const { org, apiKey } = await createOrgWithApiKey(t.db);
  call = restClient(t.db, apiKey);
  readOnly = restClient(t.db, (await createApiKey(t.db, org.id, { name: "ro", role: "readOnly" }, null)).key);
  other = restClient(t.db, (await createOrgWithApiKey(t.db)).apiKey);
  projectId = await createProjectOverRest(call, "Inbound");
});
afterAll(async () => {
  await t.drop();
});

describe("GET /projects/{projectId}/inbound-hooks", () => {
  it("issues the token on first read and answers the same token and the exact URLs after", async () => {
    const first = await call("GET", base());
    expect(first.status, first.text).toBe(200);
    expect(first.headers.get("cache-control")).toContain("no-store");
    const { token } = first.json;
    expect(token).toMatch(/^ih_[A-Za-z0-9_-]{43}$/);
    expect(first.json).toEqual({
      token,
      stripeUrl: `http://localhost/api/v1/hooks/${token}/stripe`,
      revenueCatUrl: `http://localhost/api/v1/hooks/${token}/revenuecat`,
      stripeConfigured: false,
      revenueCatConfigured: false,
      eventNames: {},
    });
    expect((await call("GET", base())).json.token).toBe(token);
    // Stored as a hash (the lookup) and a ciphertext (to show it again), never in clear.
    const row = await t.db.inboundHook.findUniqueOrThrow({ where: { projectId } });
    expect(JSON.stringify(row)).not.toContain(token);
    expect(decryptSecret(row.tokenEncrypted)).toBe(token);
  });

  it("answers 404 for another organisation's project, as for an unknown one", async () => {
    const theirs = await other("GET", base());
    expectProblem(theirs, 404);
    expect(theirs.json.detail).toBe((await other("GET", "/projects/00000000-0000-0000-0000-000000000000/inbound-hooks")).json.detail);
    expectProblem(await other("PUT", base(), { body: { eventNames: {} } }), 404);
    expectProblem(await other("POST", `${base()}/rotate-token`), 404);
    expectProblem(await other("GET", `/projects/${projectId}/inbound-events`), 404);
  });
});

describe("PUT /projects/{projectId}/inbound-hooks", () => {
  it("stores the secrets encrypted, never answers them, and keeps what is not sent", async () => {
    const res = await call("PUT", base(), { body: { stripeSigningSecret: STRIPE_SECRET, eventNames: { "invoice.paid": "purchase" } } });
    expect(res.status, res.text).toBe(200);
    expect(res.json).toMatchObject({ stripeConfigured: true, revenueCatConfigured: false, eventNames: { "invoice.paid": "purchase" } });
    expect(res.text).not.toContain(STRIPE_SECRET);
    // PascalCase is accepted like everywhere in the API.
    const rc = await call("PUT", base(), { body: { RevenueCatAuthorization: RC_AUTH } });
    expect(rc.json).toMatchObject({ stripeConfigured: true, revenueCatConfigured: true, eventNames: { "invoice.paid": "purchase" } });
    expect(rc.text).not.toContain(RC_AUTH);
    const row = await t.db.inboundHook.findUniqueOrThrow({ where: { projectId } });
    expect(JSON.stringify(row)).not.toContain(STRIPE_SECRET);
    expect(JSON.stringify(row)).not.toContain(RC_AUTH);
    expect(decryptSecret(row.stripeSecretEncrypted!)).toBe(STRIPE_SECRET);
    expect(decryptSecret(row.revenueCatAuthEncrypted!)).toBe(RC_AUTH);
    expect((await call("GET", base())).text).not.toContain(STRIPE_SECRET);
  });

  it("removes a secret with null and replaces the mapping whole", async () => {
    const res = await call("PUT", base(), { body: { revenueCatAuthorization: null, eventNames: { INITIAL_PURCHASE: "subscribed" } } });
    expect(res.json).toMatchObject({ stripeConfigured: true, revenueCatConfigured: false, eventNames: { INITIAL_PURCHASE: "subscribed" } });
    const back = await call("PUT", base(), { body: { revenueCatAuthorization: RC_AUTH, eventNames: {} } });
    expect(back.json).toMatchObject({ revenueCatConfigured: true, eventNames: {} });
  });

  it("refuses bad input with a problem naming the field and rule", async () => {
    expectProblem(await call("PUT", base(), { body: { stripeSigningSecret: "sk_live_123" } }), 400, ["stripeSigningSecret"]);
    expectProblem(await call("PUT", base(), { body: { revenueCatAuthorization: "   " } }), 400, ["revenueCatAuthorization"]);
    expectProblem(await call("PUT", base(), { body: { revenueCatAuthorization: "x".repeat(501) } }), 400, [["revenueCatAuthorization", "too_big"]]);
    expectProblem(await call("PUT", base(), { body: { eventNames: { "invoice paid": "purchase" } } }), 400, ["eventNames.invoice paid"]);
    expectProblem(await call("PUT", base(), { body: { eventNames: { "invoice.paid": "" } } }), 400, ["eventNames.invoice.paid"]);
    expectProblem(await call("PUT", base(), { body: { eventNames: { "invoice.paid": 3 } } }), 400, ["eventNames.invoice.paid"]);
    const many = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`type.${i}`, "purchase"]));
    expectProblem(await call("PUT", base(), { body: { eventNames: many } }), 400, ["eventNames"]);
    expectProblem(await call("PUT", base(), { body: { eventNames: ["purchase"] } }), 400, ["eventNames"]);
  });

  it("is written to the audit log without the secrets", async () => {
    const entries = await t.db.auditEntry.findMany({ where: { action: { startsWith: "inbound_hooks." } } });
    expect(entries.length).toBeGreaterThan(0);
    expect(JSON.stringify(entries)).not.toContain(STRIPE_SECRET);
    expect(entries[0]).toMatchObject({ action: "inbound_hooks.update", targetId: projectId, details: { fields: ["stripeSigningSecret", "eventNames"] } });
  });
});

describe("POST /projects/{projectId}/inbound-hooks/rotate-token", () => {
  it("issues a new token and keeps the secrets and the mapping", async () => {
    await call("PUT", base(), { body: { eventNames: { "invoice.paid": "purchase" } } });
    const before = (await call("GET", base())).json;
    const res = await call("POST", `${base()}/rotate-token`);
    expect(res.status, res.text).toBe(200);
    expect(res.json.token).not.toBe(before.token);
    expect(res.json).toMatchObject({ stripeConfigured: true, revenueCatConfigured: true, eventNames: { "invoice.paid": "purchase" } });
    expect(res.json.stripeUrl).toBe(`http://localhost/api/v1/hooks/${res.json.token}/stripe`);
    expect((await call("GET", base())).json.token).toBe(res.json.token);
  });
});

describe("permissions", () => {
  it("lets a read-only key read the settings and the events, and change nothing", async () => {
    expect((await readOnly("GET", base())).status).toBe(200);
    expect((await readOnly("GET", `/projects/${projectId}/inbound-events`)).status).toBe(200);
    expectProblem(await readOnly("PUT", base(), { body: { eventNames: {} } }), 403);
    expectProblem(await readOnly("POST", `${base()}/rotate-token`), 403);
  });
});

describe("re-encryption after a key rotation", () => {
  it("rewrites the token and both provider secrets with the current key", async () => {
    const before = (await call("GET", base())).json;
    // The suite's key (vitest.config.ts) becomes the previous one.
    const keys = { current: "a new key for the test", previous: process.env.REFERLOOP_ENCRYPTION_KEY! };
    const report = await reencryptSecrets(t.db, keys);
    expect(report.unreadable).toBe(0);
    const row = await t.db.inboundHook.findUniqueOrThrow({ where: { projectId } });
    expect(decryptSecret(row.tokenEncrypted, { current: keys.current })).toBe(before.token);
    expect(decryptSecret(row.stripeSecretEncrypted!, { current: keys.current })).toBe(STRIPE_SECRET);
    expect(decryptSecret(row.revenueCatAuthEncrypted!, { current: keys.current })).toBe(RC_AUTH);
  });
});
