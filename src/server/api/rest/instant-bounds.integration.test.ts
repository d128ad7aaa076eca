import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDb, type TestDb } from "@/test/db";
import { createProjectOverRest, expectProblem, restClientForNewOrg, type RestClient } from "@/test/rest";

/*
 * Year 0000 is a valid ISO 8601 date-time (1 BC) that PostgreSQL refuses (22008): every date-time a
 * query or a body carries is bounded to years 0001..9999 (UTC) and answered 400 naming the field.
 */

let t: TestDb;
let call: RestClient;
let projectId: string;

beforeAll(async () => {
  t = await createTestDb();
  call = await restClientForNewOrg(t.db);
  projectId = await createProjectOverRest(call, "Instants");
});
afterAll(() => t.drop());

const outOfRange = ["0000-01-01T00:00:00Z", "0000-12-31T23:59:59.999Z", "0001-01-01T00:30:00+01:00", "9999-12-31T23:30:00-01:00"];

describe("a date-time outside years 0001..9999", () => {
  it.each(["inbound-events", "deliveries", "referrals", "reward-events"])("answers 400 naming from and to on GET %s", async (list) => {
    for (const value of outOfRange) {
      for (const field of ["from", "to"]) {
        const res = await call("GET", `/projects/${projectId}/${list}?${field}=${encodeURIComponent(value)}`);
        expectProblem(res, 400, [field]);
        expect(res.text).toContain("0001-01-01T00:00:00.000Z");
      }
    }
  });

  it("answers 400 naming the field on the bulk retry, retrying nothing", async () => {
    for (const value of outOfRange) {
      for (const field of ["from", "to"]) expectProblem(await call("POST", `/projects/${projectId}/deliveries/retry`, { body: { [field]: value } }), 400, [field]);
    }
  });

  it("accepts the bounds themselves", async () => {
    const all = `from=${encodeURIComponent("0001-01-01T00:00:00Z")}&to=${encodeURIComponent("9999-12-31T23:59:59.999Z")}`;
    for (const list of ["inbound-events", "deliveries", "referrals", "reward-events"]) {
      const res = await call("GET", `/projects/${projectId}/${list}?${all}`);
      expect(res.status, `${list}: ${res.text}`).toBe(200);
    }
  });
});
