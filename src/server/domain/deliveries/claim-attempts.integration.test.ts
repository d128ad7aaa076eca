import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { createTestDb, type TestDb } from "@/test/db";
import { addWebhook, createRewardSetup } from "@/test/delivery-fixtures";
import { DUE_CLAIM_SETTINGS, dueAttemptsClaim } from "./claim-attempts";

let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.drop());

type PlanNode = { "Relation Name"?: string; "Index Name"?: string; "Actual Rows": number; "Actual Loops": number; "Rows Removed by Filter"?: number; Plans?: PlanNode[] };

/** Rows of `table` the plan's scans read, over all their loops (removed by a filter or not). */
const rowsRead = (node: PlanNode, table: string): number =>
  (node["Relation Name"] === table ? (node["Actual Rows"] + (node["Rows Removed by Filter"] ?? 0)) * node["Actual Loops"] : 0) +
  (node.Plans ?? []).reduce((sum, child) => sum + rowsRead(child, table), 0);

/** Every index the plan reads. */
const indexesRead = (node: PlanNode): string[] => [...(node["Index Name"] ? [node["Index Name"]] : []), ...(node.Plans ?? []).flatMap(indexesRead)];

/** The due claim run under EXPLAIN ANALYZE, then rolled back. */
async function explainClaim(limit: number): Promise<PlanNode> {
  const rollback = new Error("rollback");
  let plan: PlanNode | undefined;
  await db
    .$transaction(async (tx) => {
      await tx.$executeRawUnsafe(DUE_CLAIM_SETTINGS);
      const statement = dueAttemptsClaim({ workerId: "w", limit, leaseMs: 60_000, dueBefore: new Date(), perWebhook: limit, inFlight: new Map() });
      const [row] = await tx.$queryRaw<[{ "QUERY PLAN": [{ Plan: PlanNode }] }]>(Prisma.sql`EXPLAIN (ANALYZE, FORMAT JSON) ${statement}`);
      plan = row["QUERY PLAN"][0].Plan;
      throw rollback;
    })
    .catch((error: unknown) => {
      if (error !== rollback) throw error;
    });
  return plan!;
}

describe("the due claim's plan", () => {
  it("reads about the rows it claims when the statistics say no delivery is Pending (a burst after a history of successes)", async () => {
    const setup = await createRewardSetup(db);
    const webhook = await addWebhook(db, setup, { url: "https://hooks.example.com/in" });
    const insert = (count: number, status: "Succeeded" | "Pending") =>
      db.$executeRaw`
        INSERT INTO "Delivery" ("id", "projectId", "webhookId", "eventName", "eventType", "payload", "status", "attemptCount", "nextAttemptAt", "createdAt", "updatedAt")
        SELECT gen_random_uuid()::text, ${setup.project.id}, ${webhook.id}, 'test', 'test', '{}'::jsonb, CAST(${status} AS "DeliveryStatus"),
          ${status === "Succeeded" ? 1 : 0}, now() - interval '1 minute', now(), now()
        FROM generate_series(1, ${count})`;
    await insert(3_000, "Succeeded");
    await db.$executeRawUnsafe(`ANALYZE "Delivery"`);
    await insert(3_000, "Pending");

    const plan = await explainClaim(16);
    // Candidates (4 per slot) and the 16 chosen, looked up by id; walking every Pending row read 3,000 more.
    expect(rowsRead(plan, "Delivery")).toBeLessThan(500);
    expect(plan["Actual Rows"]).toBe(16);
    // Candidates come from the due index, which holds Pending rows only (a finished delivery leaves it).
    expect(indexesRead(plan)).toContain("Delivery_due_idx");
  });
});
