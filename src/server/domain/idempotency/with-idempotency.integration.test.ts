import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { hashRequest } from "@/server/domain/idempotency/hash-request";
import { IDEMPOTENCY_TTL_MS, withIdempotency, type IdempotencyRequest } from "@/server/domain/idempotency/with-idempotency";
import { randomAlphanumeric } from "@/server/domain/tokens";
import { createTestDb, type TestDb } from "@/test/db";
import { domainError } from "@/test/expect";
import { createOrgWithProject } from "@/test/fixtures";

let t: TestDb;
let org: string;
let otherOrg: string;

beforeAll(async () => {
  t = await createTestDb();
  org = (await createOrgWithProject(t.db)).org.id;
  otherOrg = (await createOrgWithProject(t.db)).org.id;
});
afterAll(() => t?.drop());

const SCOPE = "POST /api/v1/public/projects/p/referrals/reward";
const request = (over: Partial<IdempotencyRequest> = {}): IdempotencyRequest => ({
  organizationId: org,
  key: "key-" + randomAlphanumeric(10),
  scope: SCOPE,
  requestHash: hashRequest({ ReferralTrackingId: "t1" }),
  ...over,
});

describe("hashRequest", () => {
  it("ignores key order and undefined fields, but not values", () => {
    expect(hashRequest({ a: 1, b: { c: [1, 2], d: "x" } })).toBe(hashRequest({ b: { d: "x", c: [1, 2] }, a: 1, e: undefined }));
    expect(hashRequest({ a: 1 })).not.toBe(hashRequest({ a: 2 }));
    expect(hashRequest([1, 2])).not.toBe(hashRequest([2, 1]));
    expect(hashRequest(undefined)).toBe(hashRequest(null));
  });
});

describe("withIdempotency", () => {
  it("runs once and replays the stored response to a retry", async () => {
    const req = request();
    const run = vi.fn(async () => ({ status: 201, body: { id: "abc", n: 1 } }));
    expect(await withIdempotency(t.db, req, run)).toEqual({ status: 201, body: { id: "abc", n: 1 }, replayed: false });
    expect(await withIdempotency(t.db, req, run)).toEqual({ status: 201, body: { id: "abc", n: 1 }, replayed: true });
    expect(run).toHaveBeenCalledTimes(1);
    const record = await t.db.idempotencyRecord.findUniqueOrThrow({ where: { organizationId_key: { organizationId: org, key: req.key } } });
    expect(record.expiresAt.getTime() - Date.now()).toBeGreaterThan(IDEMPOTENCY_TTL_MS - 60_000);
  });

  it("replays an empty body as empty", async () => {
    const req = request();
    await withIdempotency(t.db, req, async () => ({ status: 200, body: undefined }));
    expect(await withIdempotency(t.db, req, async () => ({ status: 500, body: "no" }))).toEqual({
      status: 200,
      body: undefined,
      replayed: true,
    });
  });

  it("is 422 when the key is reused with another body or another scope", async () => {
    const req = request();
    await withIdempotency(t.db, req, async () => ({ status: 200, body: { ok: true } }));
    const run = vi.fn(async () => ({ status: 200, body: {} }));
    const otherBody = await domainError(withIdempotency(t.db, { ...req, requestHash: hashRequest({ ReferralTrackingId: "t2" }) }, run));
    expect(otherBody.kind).toBe("unprocessable");
    const otherScope = await domainError(withIdempotency(t.db, { ...req, scope: "POST /api/v1/public/projects/p/users" }, run));
    expect(otherScope.kind).toBe("unprocessable");
    expect(run).not.toHaveBeenCalled();
  });

  it("keeps keys apart per organisation", async () => {
    const req = request();
    await withIdempotency(t.db, req, async () => ({ status: 200, body: "first org" }));
    const other = await withIdempotency(t.db, { ...req, organizationId: otherOrg }, async () => ({ status: 200, body: "second org" }));
    expect(other).toEqual({ status: 200, body: "second org", replayed: false });
  });

  it("runs concurrent first calls once; the others get 409 while it is in flight", async () => {
    const req = request();
    // The first run finishes only after the nine other calls have answered, so all of them race it.
    let settled = 0;
    let othersDone!: () => void;
    const othersAnswered = new Promise<void>((resolve) => (othersDone = resolve));
    const run = vi.fn(async () => {
      await othersAnswered;
      return { status: 200, body: { once: true } };
    });
    const calls = Array.from({ length: 10 }, () =>
      withIdempotency(t.db, req, run).finally(() => {
        if (++settled === 9) othersDone();
      }),
    );
    const results = await Promise.allSettled(calls);
    expect(run).toHaveBeenCalledTimes(1);
    expect(results.filter((r) => r.status === "fulfilled")).toMatchObject([{ value: { replayed: false } }]);
    const rejected = results.filter((r) => r.status === "rejected");
    expect(rejected).toHaveLength(9);
    for (const r of rejected) expect(r.reason).toMatchObject({ kind: "conflict" });
    expect(await withIdempotency(t.db, req, run)).toMatchObject({ body: { once: true }, replayed: true });
  });

  it("releases the key when the run throws, so a retry runs again", async () => {
    const req = request();
    await expect(withIdempotency(t.db, req, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await withIdempotency(t.db, req, async () => ({ status: 200, body: "second" }))).toEqual({
      status: 200,
      body: "second",
      replayed: false,
    });
  });

  it("ignores and overwrites an expired record, including an abandoned in-progress claim", async () => {
    const req = request();
    await withIdempotency(t.db, req, async () => ({ status: 200, body: "old" }));
    const where = { organizationId_key: { organizationId: org, key: req.key } };
    await t.db.idempotencyRecord.update({ where, data: { expiresAt: new Date(Date.now() - 1000) } });
    const fresh = await withIdempotency(t.db, { ...req, requestHash: "different" }, async () => ({ status: 200, body: "new" }));
    expect(fresh).toEqual({ status: 200, body: "new", replayed: false });

    const stuck = request();
    await t.db.idempotencyRecord.create({
      data: { ...stuck, status: 0, body: "", expiresAt: new Date(Date.now() - 1) },
    });
    expect(await withIdempotency(t.db, stuck, async () => ({ status: 200, body: "taken over" }))).toMatchObject({
      replayed: false,
    });
  });

  it("is 409 while a live claim is in progress", async () => {
    const req = request();
    await t.db.idempotencyRecord.create({ data: { ...req, status: 0, body: "", expiresAt: new Date(Date.now() + 60_000) } });
    expect((await domainError(withIdempotency(t.db, req, async () => ({ status: 200, body: null })))).kind).toBe("conflict");
  });

  it("rejects an empty or overlong key", async () => {
    for (const key of ["", "k".repeat(256)]) {
      expect((await domainError(withIdempotency(t.db, request({ key }), async () => ({ status: 200, body: null })))).kind).toBe(
        "invalid",
      );
    }
  });
});
