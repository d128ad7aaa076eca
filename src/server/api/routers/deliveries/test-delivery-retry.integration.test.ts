import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemberRole } from "@/generated/prisma/enums";
import { TEST_EVENT_NAME } from "@/lib/schemas/deliveries";
import { signUp } from "@/server/domain/accounts/sign-up";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { callerFor, signInForTest } from "@/test/sessions";

/*
 * Issue 34, item 10: re-sending a test delivery is sending a test event, so it takes the permission of
 * `webhooks.sendTest` (webhooks.write) through every retry path (one delivery, one log entry, a bulk
 * retry), and like sending one it reaches a disabled webhook.
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

const PASSWORD = "correct horse";

async function team() {
  const prefix = uniqueName("tr").toLowerCase();
  const person = async (role: string) => {
    const email = `${prefix}-${role}@example.com`;
    const { user, organization } = await signUp(t.db, { email, password: PASSWORD, organizationName: `Org of ${email}`, name: null });
    return { userId: user.id, organizationId: organization.id, session: await signInForTest(t.db, email, PASSWORD) };
  };
  const owner = await person("owner");
  const join = async (role: MemberRole) => {
    const p = await person(role);
    await t.db.membership.create({ data: { userId: p.userId, organizationId: owner.organizationId, role } });
    return callerFor(t.db, p.session, owner.organizationId);
  };
  const asOwner = await callerFor(t.db, owner.session, owner.organizationId);
  const project = await asOwner.projects.create({ name: "Shop", appType: "Web" });
  const webhook = await asOwner.webhooks.create({
    projectId: project.uniqueId,
    campaignId: project.campaignId!,
    name: "Hook",
    url: "https://hooks.example.com/x",
    enabled: true,
    environment: "Both",
  });
  return { projectId: project.uniqueId, webhookId: webhook.id, asMember: await join("member"), asViewer: await join("viewer") };
}

/** A test event that failed (as sendTest leaves one whose receiver answered 500), with its log entry. */
async function failedTestDelivery(projectId: string, webhookId: string) {
  const delivery = await t.db.delivery.create({
    data: { projectId, webhookId, trackingId: null, eventName: TEST_EVENT_NAME, payload: { event: TEST_EVENT_NAME }, status: "Failed", attemptCount: 1, failure: "dead_lettered" },
  });
  const log = await t.db.deliveryAttempt.create({
    data: { projectId, webhookId, deliveryId: delivery.id, attemptNumber: 1, eventType: TEST_EVENT_NAME, httpStatus: 500, responseTimeMs: 5, success: false },
  });
  return { deliveryId: delivery.id, logId: log.id };
}

const statusOf = async (deliveryId: string) => (await t.db.delivery.findUniqueOrThrow({ where: { id: deliveryId } })).status;

describe("re-sending a test delivery", () => {
  for (const enabled of [true, false]) {
    it(`is refused to a viewer on every retry path (webhook ${enabled ? "enabled" : "disabled"}), as sending a test is`, async () => {
      const { projectId, webhookId, asViewer } = await team();
      if (!enabled) await t.db.webhook.update({ where: { id: webhookId }, data: { enabled: false } });
      await expect(asViewer.webhooks.sendTest({ projectId, webhookId })).rejects.toMatchObject({ code: "FORBIDDEN" });
      const { deliveryId, logId } = await failedTestDelivery(projectId, webhookId);

      await expect(asViewer.deliveries.retry({ projectId, deliveryId })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("test") });
      await expect(asViewer.webhooks.retryDeliveryLog({ projectId, logId })).rejects.toMatchObject({ code: "FORBIDDEN" });
      await expect(asViewer.webhooks.retryDeliveryLogById({ logId })).rejects.toMatchObject({ code: "FORBIDDEN" });
      // A bulk retry selects it no more than a single one would.
      expect(await asViewer.deliveries.retryMany({ projectId, webhookId })).toMatchObject({ count: 0 });
      expect(await statusOf(deliveryId)).toBe("Failed");
    });
  }

  it("is a member's, on every path, to a disabled webhook too (a test reaches one)", async () => {
    const { projectId, webhookId, asMember } = await team();
    await t.db.webhook.update({ where: { id: webhookId }, data: { enabled: false } });
    const bulk = await failedTestDelivery(projectId, webhookId);
    expect(await asMember.deliveries.retryMany({ projectId, webhookId })).toMatchObject({ count: 1 });
    expect(await statusOf(bulk.deliveryId)).toBe("Pending");
    const one = await failedTestDelivery(projectId, webhookId);
    expect(await asMember.deliveries.retry({ projectId, deliveryId: one.deliveryId })).toMatchObject({ deliveryId: one.deliveryId, status: "Pending" });
    const two = await failedTestDelivery(projectId, webhookId);
    expect(await asMember.webhooks.retryDeliveryLog({ projectId, logId: two.logId })).toMatchObject({ deliveryId: two.deliveryId, status: "Pending" });
  });
});
