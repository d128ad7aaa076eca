import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { createWebhookBody, deliveryLogQuery } from "@/lib/schemas/webhooks";
import type { Db } from "@/server/db/client";
import { guardedConfig, testConfig } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createRewardSetup, insertCompletedReward, type RewardSetup } from "@/test/delivery-fixtures";
import { domainError } from "@/test/expect";
import { createOrgWithProject } from "@/test/fixtures";
import { createWebhook } from "./create-webhook";
import { deleteWebhook } from "./delete-webhook";
import { getWebhook } from "./get-webhook";
import { listDeliveryLogs } from "@/server/domain/deliveries/list-delivery-logs";
import { listWebhooks } from "./list-webhooks";
import { retryDeliveryLog } from "@/server/domain/deliveries/retry-delivery-log";
import { updateWebhook } from "./update-webhook";
import { decryptSecret } from "./webhook-secret";

let testDb: TestDb;
let db: Db;

beforeAll(async () => {
  testDb = await createTestDb();
  db = testDb.db;
});
afterAll(() => testDb.drop());
const rules = testConfig().urlRules;

const input = createWebhookBody.parse({ name: "Backend", url: "https://hooks.example.com/referloop", secret: "super-secret-value-9876" });
const logsOf = (setup: RewardSetup, webhookId: string, query: z.input<typeof deliveryLogQuery> = {}) =>
  listDeliveryLogs(db, setup.org.id, setup.project.id, webhookId, deliveryLogQuery.parse(query));

/** Writes one finished attempt per status given, for the log tests (no HTTP needed). */
async function logAttempts(setup: RewardSetup, webhookId: string, results: boolean[]) {
  const { deliveryIds } = await insertCompletedReward(db, setup);
  const deliveryId = deliveryIds.find(Boolean)!;
  for (const [i, success] of results.entries()) {
    await db.deliveryAttempt.create({
      data: {
        projectId: setup.project.id,
        webhookId,
        deliveryId,
        attemptNumber: i + 1,
        eventType: "purchase",
        httpStatus: success ? 200 : 500,
        responseTimeMs: 12,
        success,
        error: success ? null : "HTTP 500",
      },
    });
  }
  await db.delivery.update({
    where: { id: deliveryId },
    data: { status: results.at(-1) ? "Succeeded" : "Failed", attemptCount: results.length },
  });
  return deliveryId;
}

describe("webhook CRUD", () => {
  it("creates with defaults, returns the secret once, stores it encrypted and shows a hint", async () => {
    const { org, project, campaign } = await createOrgWithProject(db);
    const created = await createWebhook(db, org.id, project.id, campaign.id, input, rules);
    expect(created).toMatchObject({
      ...input,
      projectId: project.id,
      campaignId: campaign.id,
      enabled: true,
      environment: "Both",
      secretHint: "****9876",
    });
    const row = await db.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(row.secretEncrypted).not.toContain(input.secret);
    expect(decryptSecret(row.secretEncrypted)).toBe(input.secret);

    const fetched = await getWebhook(db, org.id, project.id, created.id);
    const { secret: _secret, warning: _warning, ...withoutSecret } = created;
    expect(fetched).toEqual(withoutSecret);
    expect(JSON.stringify(await listWebhooks(db, org.id, project.id))).not.toContain(input.secret);
  });

  it("creates disabled, Sandbox-scoped webhooks when asked", async () => {
    const { org, project, campaign } = await createOrgWithProject(db);
    const created = await createWebhook(db, org.id, project.id, campaign.id, { ...input, enabled: false, environment: "Sandbox" }, rules);
    expect(created).toMatchObject({ enabled: false, environment: "Sandbox" });
  });

  it.each([
    [{ name: "  " }, "name"],
    [{ name: undefined }, "name"],
    [{ url: "not a url" }, "url"],
    [{ url: "ftp://example.com" }, "url"],
    [{ secret: "" }, "secret"],
    [{ secret: "has a space in the middle" }, "secret"],
    [{ secret: "fifteen-chars-x" }, "secret"],
    [{ secret: "whsec_bm90IGxvbmcgZW5vdWdo" }, "secret"],
    [{ environment: "Staging" }, "environment"],
    [{ enabled: "yes" }, "enabled"],
  ])("the create schema refuses %o (field %s)", (override, field) => {
    const issues = createWebhookBody.safeParse({ ...input, ...override }).error?.issues ?? [];
    expect(issues.map((i) => i.path.join("."))).toEqual([field]);
  });

  it("refuses a campaign of another project", async () => {
    const mine = await createOrgWithProject(db);
    const other = await createOrgWithProject(db);
    const error = await domainError(createWebhook(db, mine.org.id, mine.project.id, other.campaign.id, input, rules));
    expect(error.kind).toBe("not_found");
  });

  it("updates only the fields given", async () => {
    const { org, project, campaign } = await createOrgWithProject(db);
    const created = await createWebhook(db, org.id, project.id, campaign.id, input, rules);
    const renamed = await updateWebhook(db, org.id, project.id, created.id, { name: "Renamed" }, rules);
    expect(renamed).toMatchObject({ name: "Renamed", url: input.url, enabled: true, environment: "Both", secretHint: "****9876" });

    const changed = await updateWebhook(db, org.id, project.id, created.id, {
      url: "https://other.example.com/x",
      secret: "a-brand-new-secret-abcd",
      enabled: false,
      environment: "Production",
    }, rules);
    expect(changed).toMatchObject({ name: "Renamed", url: "https://other.example.com/x", enabled: false, environment: "Production", secretHint: "****abcd" });
    expect(changed).not.toHaveProperty("secret");
    const row = await db.webhook.findUniqueOrThrow({ where: { id: created.id } });
    expect(decryptSecret(row.secretEncrypted)).toBe("a-brand-new-secret-abcd");

    const error = await domainError(updateWebhook(db, org.id, project.id, created.id, { url: "ftp://nope" }, rules));
    expect(error.issues[0]).toMatchObject({ field: "url" });
  });

  it("deletes a webhook together with its delivery log", async () => {
    const setup = await createRewardSetup(db);
    const webhook = await createWebhook(db, setup.org.id, setup.project.id, setup.campaign.id, input, rules);
    await logAttempts(setup, webhook.id, [false, true]);
    await deleteWebhook(db, setup.org.id, setup.project.id, webhook.id);
    expect(await db.deliveryAttempt.count({ where: { webhookId: webhook.id } })).toBe(0);
    expect(await db.delivery.count({ where: { webhookId: webhook.id } })).toBe(0);
    expect((await domainError(getWebhook(db, setup.org.id, setup.project.id, webhook.id))).kind).toBe("not_found");
  });
});

describe("URL rules by default", () => {
  it("requires https and refuses private or loopback targets, at creation and update", async () => {
    const { org, project, campaign } = await createOrgWithProject(db);
    const create = (url: string, rules = guardedConfig().urlRules) =>
      createWebhook(db, org.id, project.id, campaign.id, { ...input, url }, rules);

    expect((await domainError(create("http://93.184.215.14/hook"))).issues[0]).toMatchObject({ field: "url", rule: "https" });
    for (const url of ["https://127.0.0.1/hook", "https://localhost/hook", "https://10.0.0.8/", "https://169.254.169.254/", "https://[::1]/"]) {
      expect((await domainError(create(url))).issues[0]).toMatchObject({ field: "url", rule: "public_address" });
    }
    const ok = await create("https://93.184.215.14/hook");
    const update = updateWebhook(db, org.id, project.id, ok.id, { url: "https://192.168.1.20/" }, guardedConfig().urlRules);
    expect((await domainError(update)).issues[0]).toMatchObject({ rule: "public_address" });

    const allowingPrivate = testConfig({ REFERLOOP_ALLOW_HTTP_URLS: "" }).urlRules;
    expect(await create("https://127.0.0.1/hook", allowingPrivate)).toMatchObject({ url: "https://127.0.0.1/hook" });
    // Link-local and cloud metadata stay refused whatever is allowed.
    for (const url of ["https://169.254.169.254/latest/meta-data", "https://[fd00:ec2::254]/"]) {
      expect((await domainError(create(url, testConfig().urlRules))).issues[0]).toMatchObject({ field: "url", rule: "public_address" });
    }
  });
});

describe("delivery log", () => {
  it("lists newest first, with limit 1..500 and default 100", async () => {
    const setup = await createRewardSetup(db);
    const webhook = await createWebhook(db, setup.org.id, setup.project.id, setup.campaign.id, input, rules);
    const deliveryId = await logAttempts(setup, webhook.id, [false, false, true]);
    const logs = await logsOf(setup, webhook.id);
    expect(logs.map((l) => l.attemptNumber)).toEqual([3, 2, 1]);
    expect(logs[0]).toEqual({
      id: expect.any(String),
      webhookId: webhook.id,
      deliveryId,
      attemptNumber: 3,
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      eventType: "purchase",
      httpStatus: 200,
      responseTimeMs: 12,
      success: true,
      error: null,
      responseExcerpt: null,
      deliveryStatus: "Succeeded",
      retryable: false,
    });
    expect(await logsOf(setup, webhook.id, { limit: 2 })).toHaveLength(2);
    for (const limit of [0, 501, 1.5, Number.NaN]) expect(deliveryLogQuery.safeParse({ limit }).error?.issues[0]?.path).toEqual(["limit"]);

    await db.deliveryAttempt.createMany({
      data: Array.from({ length: 120 }, (_, i) => ({
        projectId: setup.project.id,
        webhookId: webhook.id,
        deliveryId,
        attemptNumber: 10 + i,
        eventType: "purchase",
        responseTimeMs: 1,
        success: false,
      })),
    });
    expect(await logsOf(setup, webhook.id)).toHaveLength(100);
    expect(await logsOf(setup, webhook.id, { limit: 500 })).toHaveLength(123);
  });

  it("marks failed entries of a dead-lettered delivery as retryable", async () => {
    const setup = await createRewardSetup(db);
    const webhook = await createWebhook(db, setup.org.id, setup.project.id, setup.campaign.id, input, rules);
    await logAttempts(setup, webhook.id, [false, false]);
    const logs = await logsOf(setup, webhook.id);
    expect(logs.map((l) => [l.deliveryStatus, l.retryable])).toEqual([
      ["Failed", true],
      ["Failed", true],
    ]);
  });
});

describe("another organisation", () => {
  it("gets 404 for every webhook operation on a project or webhook it does not own", async () => {
    const owner = await createRewardSetup(db);
    const webhook = await createWebhook(db, owner.org.id, owner.project.id, owner.campaign.id, input, rules);
    await logAttempts(owner, webhook.id, [false]);
    const [entry] = await db.deliveryAttempt.findMany({ where: { webhookId: webhook.id } });
    const intruder = await createOrgWithProject(db);

    // Through the owner's project id, and through the intruder's own project with the owner's ids.
    for (const projectId of [owner.project.id, intruder.project.id]) {
      const calls: (() => Promise<unknown>)[] = [
        () => getWebhook(db, intruder.org.id, projectId, webhook.id),
        () => updateWebhook(db, intruder.org.id, projectId, webhook.id, { name: "pwned" }, rules),
        () => deleteWebhook(db, intruder.org.id, projectId, webhook.id),
        () => listDeliveryLogs(db, intruder.org.id, projectId, webhook.id, { limit: 1 }),
        () => retryDeliveryLog(db, intruder.org.id, projectId, entry!.id, true),
        () => createWebhook(db, intruder.org.id, projectId, owner.campaign.id, input, rules),
      ];
      for (const call of calls) expect((await domainError(call())).kind).toBe("not_found");
    }
    expect((await domainError(listWebhooks(db, intruder.org.id, owner.project.id))).kind).toBe("not_found");
    expect(await getWebhook(db, owner.org.id, owner.project.id, webhook.id)).toMatchObject({ name: input.name });
    expect(await db.delivery.count({ where: { webhookId: webhook.id, status: "Failed" } })).toBe(1);
  });

  it("gets 404 for an absent webhook or log entry", async () => {
    const { org, project } = await createOrgWithProject(db);
    const absent = "00000000-0000-0000-0000-000000000000";
    expect((await domainError(getWebhook(db, org.id, project.id, absent))).kind).toBe("not_found");
    expect((await domainError(retryDeliveryLog(db, org.id, project.id, absent, true))).kind).toBe("not_found");
    expect((await domainError(listWebhooks(db, org.id, absent))).kind).toBe("not_found");
  });
});
