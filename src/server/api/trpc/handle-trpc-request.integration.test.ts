import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { Services } from "@/server/api/trpc/context";
import { handleTrpcRequest, type Session } from "@/server/api/trpc/handle-trpc-request";
import { MAX_BODY_BYTES } from "@/server/http/request-body";
import { MAX_TRPC_BATCH_SIZE } from "@/lib/trpc-batch";
import { testConfig, testServices } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { logger } from "@/server/observability/logger";
import { signUpForTest } from "@/test/accounts";
import { callerFor } from "@/test/sessions";

/*
 * The dashboard's tRPC endpoint over real Requests: the same protections as the REST surface (body
 * limit, bad text, generic internal errors with a request id) plus the batch rules.
 */

let t: TestDb;
let services: Services;
const anonymous = async (): Promise<Session> => ({ token: null, organizationId: null });

beforeAll(async () => {
  t = await createTestDb();
  services = testServices(t.db);
});
afterAll(() => t?.drop());

async function trpc(path: string, init: { body?: string; headers?: Record<string, string>; method?: string } = {}, using = services) {
  const req = new Request(`http://localhost/api/trpc/${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: { "content-type": "application/json", ...init.headers },
    body: init.body,
  });
  const res = await handleTrpcRequest(req, using, anonymous);
  const text = await res.text();
  return { status: res.status, headers: res.headers, text, json: JSON.parse(text) };
}

const signUpInput = (email = `${uniqueName("user")}@example.com`) => ({ email, password: "a-long-sign-up-password", organizationName: "Org" });
type Problem = { status: number; type: string; detail: string; requestId?: string; errors?: { field: string; rule: string }[] };
const problemOf = (envelope: { error: { data: { problem: Problem } } }) => envelope.error.data.problem;

describe("the tRPC endpoint", () => {
  it("refuses a body over the REST limit with 413, without running the call", async () => {
    const email = `${uniqueName("big")}@example.com`;
    const body = JSON.stringify({ ...signUpInput(email), name: "x".repeat(MAX_BODY_BYTES) });
    const res = await trpc("accounts.signUp", { body });
    expect(res.status).toBe(413);
    expect(problemOf(res.json)).toMatchObject({ status: 413, type: "urn:referloop:problem:payload-too-large" });
    expect(await t.db.user.count({ where: { email } })).toBe(0);
  });

  it(`caps batches at ${MAX_TRPC_BATCH_SIZE} calls`, async () => {
    const batch = (n: number) => `${Array(n).fill("accounts.me").join(",")}?batch=1&input=${encodeURIComponent("{}")}`;
    const ok = await trpc(batch(MAX_TRPC_BATCH_SIZE));
    expect(ok.json).toHaveLength(MAX_TRPC_BATCH_SIZE); // each call answers (401: nobody signed in)
    const tooMany = await trpc(batch(MAX_TRPC_BATCH_SIZE + 1));
    expect(tooMany.status).toBe(400);
    expect(JSON.stringify(tooMany.json)).toContain("Batch call exceeds maximum size");
  });

  it("never runs sign-up inside a batch; alone it runs", async () => {
    const [a, b] = [signUpInput(), signUpInput()];
    const res = await trpc("accounts.signUp,accounts.signUp?batch=1", { body: JSON.stringify({ 0: a, 1: b }) });
    expect(res.status).toBe(400);
    for (const call of res.json) expect(problemOf(call).detail).toContain("cannot be batched");
    expect(await t.db.user.count({ where: { email: { in: [a.email, b.email] } } })).toBe(0);
    expect((await trpc("accounts.signUp", { body: JSON.stringify(a) })).status).toBe(200);
  });

  it("refuses a whole batch that holds a signed-out call, before any call runs", async () => {
    const account = signUpInput();
    const signedUp = await trpc("accounts.signUp", { body: JSON.stringify(account) });
    expect(signedUp.status).toBe(200);
    const user = { id: signedUp.json.result.data.userId as string };
    for (const path of ["accounts.requestPasswordReset", "accounts.resetPassword", "accounts.verifyEmail", "invitations.accept"]) {
      const input = path === "accounts.requestPasswordReset" ? { email: account.email } : path === "accounts.resetPassword" ? { token: "x".repeat(43), newPassword: "a brand new password" } : { token: "x".repeat(43) };
      // The harmless call first: it does not run either.
      const res = await trpc(`organizations.create,${path}?batch=1`, { body: JSON.stringify({ 0: { name: "Batched" }, 1: input }) });
      expect(res.status, path).toBe(400);
      expect(res.json).toHaveLength(2);
      for (const call of res.json) expect(problemOf(call).detail).toBe(`${path} cannot be batched: send it as a request of its own. None of this batch's 2 calls ran.`);
    }
    // A query too (the invitation page's look-up).
    const query = await trpc(`accounts.me,invitations.get?batch=1&input=${encodeURIComponent(JSON.stringify({ 1: { token: "x".repeat(43) } }))}`);
    expect(query.status).toBe(400);
    expect(problemOf(query.json[0]).detail).toContain("invitations.get cannot be batched");
    expect(await t.db.accountToken.count({ where: { userId: user.id, purpose: "resetPassword" } })).toBe(0);
    // Alone, the same call runs.
    expect((await trpc("accounts.requestPasswordReset", { body: JSON.stringify({ email: account.email }) })).status).toBe(200);
    expect(await t.db.accountToken.count({ where: { userId: user.id, purpose: "resetPassword" } })).toBe(1);
  });

  it("refuses NUL and unpaired surrogates in any input, naming the field", async () => {
    const input = signUpInput();
    const res = await trpc("accounts.signUp", { body: JSON.stringify({ ...input, organizationName: "Org\ud800" }) });
    expect(res.status).toBe(400);
    expect(problemOf(res.json).errors).toEqual([expect.objectContaining({ field: "organizationName", rule: "well_formed_unicode" })]);
    expect(await t.db.user.count({ where: { email: input.email } })).toBe(0);
  });

  it("sends X-Request-Id: the caller's usable one, else a new one", async () => {
    expect((await trpc("accounts.me", { headers: { "x-request-id": "dash-7" } })).headers.get("x-request-id")).toBe("dash-7");
    expect((await trpc("accounts.me", { headers: { "x-request-id": "no way" } })).headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("answers an internal error with a generic message and the request id, no detail or stack", async () => {
    const broken = await createTestDb();
    const failing = testServices(broken.db);
    await broken.drop();
    const logged = vi.spyOn(logger(), "error").mockImplementation(() => {});
    try {
      const res = await trpc("accounts.signUp", { body: JSON.stringify(signUpInput()), headers: { "x-request-id": "oops-1" } }, failing);
      expect(res.status).toBe(500);
      expect(res.json.error.message).toBe("An unexpected error occurred. Quote request id oops-1 when reporting it.");
      expect(res.json.error.data.stack).toBeUndefined();
      expect(problemOf(res.json)).toMatchObject({ status: 500, requestId: "oops-1" });
      expect(res.text).not.toMatch(/prisma|database|postgres|\.ts:/i);
      expect(logged.mock.calls.filter(([fields]) => (fields as unknown as { requestId?: string }).requestId === "oops-1")).toHaveLength(1);
    } finally {
      logged.mockRestore();
    }
  });

  it("limits sign-ups per e-mail address and per client IP, with the RateLimit headers and Retry-After", async () => {
    const limited = testServices(t.db, { config: testConfig({ RATE_LIMIT_SIGN_UP_PER_EMAIL_PER_HOUR: "1", RATE_LIMIT_SIGN_UP_PER_IP_PER_HOUR: "2" }) });
    const from = (ip: string) => ({ [PEER_ADDRESS_HEADER]: ip });
    const input = signUpInput();
    const first = await trpc("accounts.signUp", { body: JSON.stringify(input), headers: from("198.51.100.7") }, limited);
    expect(first.status).toBe(200);
    expect(first.headers.get("ratelimit-policy")).toBe('"sign-up-ip";q=2;w=3600, "sign-up-email";q=1;w=3600');
    expect(first.headers.get("ratelimit")).toMatch(/^"sign-up-ip";r=1;t=\d+, "sign-up-email";r=0;t=\d+$/);

    const again = await trpc("accounts.signUp", { body: JSON.stringify(input), headers: from("198.51.100.8") }, limited);
    expect(again.status).toBe(429);
    expect(problemOf(again.json)).toMatchObject({ status: 429, type: "urn:referloop:problem:rate-limited" });
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);

    // Another address from the first IP spends its second sign-up; the third from that IP is refused.
    expect((await trpc("accounts.signUp", { body: JSON.stringify(signUpInput()), headers: from("198.51.100.7") }, limited)).status).toBe(200);
    const third = await trpc("accounts.signUp", { body: JSON.stringify(signUpInput()), headers: from("198.51.100.7") }, limited);
    expect(third.status).toBe(429);
    expect(third.headers.get("ratelimit")).toMatch(/^"sign-up-ip";r=0;/);
  });
});

describe("changes only from the app's own pages, and only as JSON", () => {
  /** A POST to the endpoint as a signed-in user's browser would send it, with these headers and body. */
  const post = async (path: string, session: Session, headers: Record<string, string>, body: BodyInit) => {
    const req = new Request(`http://localhost/api/trpc/${path}`, { method: "POST", headers, body });
    const res = await handleTrpcRequest(req, services, async () => session);
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: JSON.parse(text) };
  };
  const form = () => {
    const data = new FormData();
    data.append("anything", "1");
    return data;
  };
  /** The session still works (sign-out everywhere would have ended it). */
  const stillSignedIn = async (session: Session) => (await handleTrpcRequest(new Request("http://localhost/api/trpc/accounts.me"), services, async () => session)).status === 200;

  it("refuses a cross-site multipart POST to accounts.signOutEverywhere with a 403 problem, and the session lives on", async () => {
    const user = await signUpForTest(t.db, await callerFor(t.db, null, null, services), `${uniqueName("csrf")}@example.com`);
    const session: Session = { token: user.session, organizationId: user.organizationId };
    const attacks: Record<string, string>[] = [
      { origin: "https://evil.example.net", "sec-fetch-site": "cross-site" },
      { origin: "https://evil.example.net" },
      { "sec-fetch-site": "cross-site" },
      { origin: "null" },
      // A look-alike of the app's host.
      { origin: "http://localhost.evil.example.net" },
    ];
    for (const headers of attacks) {
      const res = await post("accounts.signOutEverywhere", session, headers, form());
      expect(res.status, JSON.stringify(headers)).toBe(403);
      expect(res.headers.get("content-type")).toBe("application/problem+json; charset=utf-8");
      expect(res.json).toMatchObject({ status: 403, type: "urn:referloop:problem:forbidden", detail: expect.stringContaining("accepts changes only from its own pages") });
      // JSON from another origin too.
      expect((await post("accounts.signOutEverywhere", session, { ...headers, "content-type": "application/json" }, "{}")).status).toBe(403);
    }
    expect(await stillSignedIn(session)).toBe(true);

    // From the app's own page, a form (or text, or urlencoded) is still no way to send a change: 415.
    for (const [type, body] of [[undefined, form()], ["text/plain", "{}"], ["application/x-www-form-urlencoded", "a=1"]] as const) {
      const headers: Record<string, string> = { origin: "http://localhost", "sec-fetch-site": "same-origin", ...(type ? { "content-type": type } : {}) };
      const res = await post("accounts.signOutEverywhere", session, headers, body);
      expect(res.status, type).toBe(415);
      expect(res.json).toMatchObject({ status: 415, type: "urn:referloop:problem:unsupported-media-type" });
    }
    expect(await stillSignedIn(session)).toBe(true);

    // The dashboard's own call (JSON, same origin) works; so does one that names no origin (a script, an old browser).
    expect((await post("organizations.create", session, { origin: "http://localhost", "sec-fetch-site": "same-origin", "content-type": "application/json" }, JSON.stringify({ name: "Still works" }))).status).toBe(200);
    expect((await post("accounts.signOutEverywhere", session, { "content-type": "application/json" }, "{}")).status).toBe(200);
    expect(await stillSignedIn(session)).toBe(false);
  });

  it("lets the icon upload's multipart form through only from the app's own page", async () => {
    const user = await signUpForTest(t.db, await callerFor(t.db, null, null, services), `${uniqueName("icon")}@example.com`);
    const session: Session = { token: user.session, organizationId: user.organizationId };
    const upload = () => {
      const data = new FormData();
      data.append("projectId", "no-such-project");
      data.append("icon", new File(["x"], "icon.png", { type: "image/png" }));
      return data;
    };
    // Past the gate: the procedure answers (404, no such project).
    expect((await post("projects.setIcon", session, { origin: "http://localhost" }, upload())).status).toBe(404);
    expect((await post("projects.setIcon", session, { "sec-fetch-site": "same-origin" }, upload())).status).toBe(404);
    // Without proof of its origin, or from elsewhere: refused.
    expect((await post("projects.setIcon", session, {}, upload())).status).toBe(415);
    expect((await post("projects.setIcon", session, { origin: "https://evil.example.net" }, upload())).status).toBe(403);
  });
});
