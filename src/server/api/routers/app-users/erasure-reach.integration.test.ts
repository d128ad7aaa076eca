import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { createTestDb, type TestDb } from "@/test/db";
import { randomAlphanumeric } from "@/server/domain/tokens";
import { uniqueName } from "@/test/names";
import { createOrgWithApiKey, restClient, trackOverRest, type RestAppUser, type RestClient } from "@/test/rest";
import { createSdkProject, sdkClient } from "@/test/sdk";

/*
 * Issue 34, item 4: erasing an app user reaches every stored request and response that names them,
 * not only the tables made for users. The test gives the user a full life over the public API (created
 * with an Idempotency-Key, referred and referring with rewards and deliveries, seen by the same-device
 * rule, searched for by a bulk retry, exported, clicked, named by a provider event and echoed by a
 * receiver), erases them, then reads every text and JSON column of every table for what named them.
 */

let t: TestDb;
let call: RestClient;
beforeAll(async () => {
  t = await createTestDb();
  call = restClient(t.db, (await createOrgWithApiKey(t.db)).apiKey);
});
afterAll(() => t?.drop());

type Found = { table: string; column: string; what: string; rows: number };

/** Every text, varchar, JSON and array column of every table (the migrations' own excepted) holding one of `values`. */
async function scan(values: Record<string, string>): Promise<Found[]> {
  const columns = await t.db.$queryRaw<{ table: string; column: string }[]>`
    SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
    WHERE table_schema = current_schema() AND table_name <> '_prisma_migrations'
      AND data_type IN ('text', 'character varying', 'character', 'json', 'jsonb', 'ARRAY')
    ORDER BY 1, 2`;
  expect(columns.length).toBeGreaterThan(100);
  const found: Found[] = [];
  for (const { table, column } of columns) {
    for (const [what, value] of Object.entries(values)) {
      const [{ rows }] = (await t.db.$queryRawUnsafe(
        `SELECT count(*)::int AS rows FROM "${table}" WHERE strpos(lower("${column}"::text), lower($1)) > 0`,
        value,
      )) as [{ rows: number }];
      if (rows > 0) found.push({ table, column, what, rows });
    }
  }
  return found;
}

describe("erasing an app user", () => {
  it("leaves nothing that names them in any table, and an Idempotency-Key of theirs acts as new", async () => {
    const project = await createSdkProject(call);
    const path = (p: string) => `/projects/${project.projectId}${p}`;
    expect((await call("PUT", path("/campaign"), { body: { rewardRules: { sameDevice: "review" } } })).status).toBe(200);
    const webhook = await t.db.webhook.create({
      data: { projectId: project.projectId, campaignId: project.campaignId, name: "hook", url: "https://hooks.example.com/r", secretEncrypted: "x", secretHint: "x" },
    });

    const clientId = uniqueName("ada");
    const email = `ada.${randomAlphanumeric(10)}@example.org`;
    const createBody = { ClientProvidedId: clientId, Attributes: { email, name: "Ada" } };
    const createKey = { "idempotency-key": uniqueName("create-ada") };
    const created = await call("POST", path("/users"), { body: createBody, headers: createKey });
    expect(created.status, created.text).toBe(201);
    const ada = created.json as RestAppUser;
    const user = async (name: string) => (await call("POST", path("/users"), { body: { ClientProvidedId: uniqueName(name) } })).json as RestAppUser;
    const [bob, dee] = [await user("bob"), await user("dee")];

    // Dee referred Ada, Ada referred Bob: both rewarded (with an Idempotency-Key), each with a delivery.
    const adaItem = (await trackOverRest(call, project.projectId, dee, ada.clientProvidedId)).trackingId;
    const bobItem = (await trackOverRest(call, project.projectId, ada, bob.clientProvidedId)).trackingId;
    for (const [trackingId, key] of [[adaItem, "reward-ada"], [bobItem, "reward-bob"]] as const) {
      const reward = await call("POST", path("/referrals/reward"), { body: { ReferralTrackingId: trackingId, EventName: "purchase" }, headers: { "idempotency-key": uniqueName(key) } });
      expect(reward.status, reward.text).toBe(200);
    }
    expect(await t.db.delivery.count({ where: { webhookId: webhook.id } })).toBe(2);
    // A receiver that echoed the body, in the attempt's stored excerpt.
    for (const delivery of await t.db.delivery.findMany({ where: { webhookId: webhook.id } })) {
      await t.db.deliveryAttempt.create({
        data: {
          projectId: project.projectId,
          webhookId: webhook.id,
          deliveryId: delivery.id,
          attemptNumber: 1,
          eventType: "purchase",
          httpStatus: 500,
          responseTimeMs: 3,
          success: false,
          responseExcerpt: `{"received":${JSON.stringify(delivery.payload)}}`,
        },
      });
    }
    // Her app, seen by the same-device rule; support searching for her and retrying what they found.
    const sdk = sdkClient(t.db);
    const init = await sdk("init-app-user", { key: project.secret, body: { userId: clientId }, headers: { [PEER_ADDRESS_HEADER]: "203.0.113.44" } });
    expect(init.status, init.text).toBe(200);
    for (const search of [clientId, ada.referralCode, ada.uniqueId]) {
      expect((await call("POST", path("/deliveries/retry"), { body: { search } })).status).toBe(202);
    }
    // One about someone else, which the erasure leaves alone.
    expect((await call("POST", path("/deliveries/retry"), { body: { search: bob.clientProvidedId } })).status).toBe(202);
    expect((await call("GET", path(`/users/${ada.uniqueId}/export`))).status).toBe(200);
    // Clicks on her link, one of them attributed to her; a provider event that named her.
    await t.db.linkClick.createMany({
      data: [
        { projectId: project.projectId, referralCode: ada.referralCode, ipAddress: "198.51.100.3" },
        { projectId: project.projectId, referralCode: dee.referralCode, ipAddress: "203.0.113.44", matchedAppUserId: ada.uniqueId, matchedAt: new Date() },
      ],
    });
    await t.db.inboundEvent.create({
      data: { projectId: project.projectId, provider: "stripe", providerEventId: uniqueName("evt"), type: "invoice.paid", environment: "Production", refereeId: clientId, outcome: "ignored" },
    });

    const named = { uniqueId: ada.uniqueId, clientId, referralCode: ada.referralCode, email };
    // Everything above did store her, in many places: the scan sees them.
    expect((await scan(named)).length).toBeGreaterThan(10);

    const erased = await call("DELETE", path(`/users/${ada.uniqueId}`));
    expect(erased.status, erased.text).toBe(200);

    const left = await scan(named);
    // The audit log records the erasure (and the export before it) by the uniqueId only: a random id
    // that names no one once nothing else links it to her.
    const kept = await t.db.auditEntry.findMany({ where: { targetId: ada.uniqueId }, select: { action: true } });
    expect(kept.map((e) => e.action).sort()).toEqual(["app_user.erase", "app_user.export"]);
    expect(left).toEqual([{ table: "AuditEntry", column: "targetId", what: "uniqueId", rows: 2 }]);

    const searches = await t.db.auditEntry.findMany({ where: { action: "delivery.bulk_retry" }, orderBy: { createdAt: "asc" } });
    expect(searches.map((e) => (e.details as { filter: { search: string } }).filter.search)).toEqual(["[erased]", "[erased]", "[erased]", bob.clientProvidedId]);

    // The stored answer of her creation is gone: the same request with the same key acts as new, a
    // new user, not a replay of the one erased.
    const again = await call("POST", path("/users"), { body: createBody, headers: createKey });
    expect(again.status, again.text).toBe(201);
    expect(again.json).not.toMatchObject({ uniqueId: ada.uniqueId });
    expect(again.json.referralCode).not.toBe(ada.referralCode);
  });
});
