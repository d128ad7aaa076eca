import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { performAttempt } from "@/server/domain/deliveries/perform-attempt";
import { recordingScheduler, testAttemptOptions } from "@/test/config";
import { createTestDb, type TestDb } from "@/test/db";
import { createAppUserOverRest, createOrgWithApiKey, restClient, trackOverRest, type RestClient } from "@/test/rest";
import { createSdkProject, sdkClient, type SdkClient } from "@/test/sdk";
import { startReceiver } from "@/test/webhook-receiver";
import { getOnboarding } from "./get-onboarding";

/*
 * The checklist read from real data: each step ticks when the thing it stands for happens, through the
 * same API calls a client makes (REST, the client-library endpoints, a real delivery to a receiver).
 */

const scheduler = recordingScheduler();
let t: TestDb;
let sdk: SdkClient;

beforeAll(async () => {
  t = await createTestDb();
  sdk = sdkClient(t.db, { scheduler });
});
afterAll(() => t?.drop());

async function newOrg(): Promise<{ organizationId: string; rest: RestClient }> {
  const { org, apiKey } = await createOrgWithApiKey(t.db);
  return { organizationId: org.id, rest: restClient(t.db, apiKey, { scheduler }) };
}

const ticked = async (organizationId: string) => {
  const { steps } = await getOnboarding(t.db, organizationId);
  return Object.entries(steps).filter(([, done]) => done).map(([step]) => step);
};

describe("onboarding checklist", () => {
  it("starts empty for a new organisation", async () => {
    const { organizationId } = await newOrg();
    expect(await getOnboarding(t.db, organizationId)).toEqual({
      project: null,
      steps: { project: false, redirectLink: false, client: false, referral: false, webhookDelivered: false, reward: false },
      completed: 0,
      total: 6,
    });
  });

  it("ticks each step from the data as a project goes live", async () => {
    const { organizationId, rest } = await newOrg();
    const project = await createSdkProject(rest, { name: "Live shop", referralRedirectLink: null });
    expect(await getOnboarding(t.db, organizationId)).toMatchObject({ project: { id: project.projectId, name: "Live shop", appType: "Web" }, completed: 1 });

    const update = await rest("PUT", `/projects/${project.projectId}`, { body: { name: "Live shop", referralRedirectLink: "https://shop.example.com/join" } });
    expect(update.status, update.text).toBe(200);
    expect(await ticked(organizationId)).toEqual(["project", "redirectLink"]);

    // A backend's REST calls are not the widget: only the client-library endpoints tick "installed".
    const referrer = await createAppUserOverRest(rest, project.projectId, "alice");
    expect(await ticked(organizationId)).toEqual(["project", "redirectLink"]);
    const init = await sdk("init-app-user", { key: project.publishableKey, body: { userId: "carol" } });
    expect(init.status, init.text).toBe(200);
    expect(await ticked(organizationId)).toEqual(["project", "redirectLink", "client"]);
    const { firstSdkCallAt } = await t.db.project.findUniqueOrThrow({ where: { id: project.projectId } });
    // Recorded once: later calls leave the first time alone.
    await sdk("init-app-user", { key: project.publishableKey, body: { userId: "dave" } });
    expect((await t.db.project.findUniqueOrThrow({ where: { id: project.projectId } })).firstSdkCallAt).toEqual(firstSdkCallAt);

    const { trackingId } = await trackOverRest(rest, project.projectId, referrer, "bob");
    expect(await ticked(organizationId)).toEqual(["project", "redirectLink", "client", "referral"]);

    const receiver = await startReceiver(() => ({ status: 200 }));
    try {
      const webhook = await rest("POST", `/projects/${project.projectId}/webhooks/${project.campaignId}`, { body: { name: "Receiver", url: receiver.url } });
      expect(webhook.status, webhook.text).toBe(201);
      const reward = await rest("POST", `/projects/${project.projectId}/referrals/reward`, { body: { referralTrackingId: trackingId, eventName: "purchase" } });
      expect(reward.status, reward.text).toBe(200);
      // Granted, its delivery not yet sent: the reward ticks, the webhook not.
      expect(await ticked(organizationId)).toEqual(["project", "redirectLink", "client", "referral", "reward"]);
      const delivery = await t.db.delivery.findFirstOrThrow({ where: { projectId: project.projectId } });
      expect(await performAttempt(t.db, delivery.id, testAttemptOptions())).toMatchObject({ outcome: "succeeded" });
    } finally {
      await receiver.close();
    }
    expect(await getOnboarding(t.db, organizationId)).toMatchObject({ completed: 6, total: 6 });
  });

  it("follows the project furthest along, and a failed delivery does not tick the webhook", async () => {
    const { organizationId, rest } = await newOrg();
    await createSdkProject(rest, { name: "First, untouched", referralRedirectLink: null });
    const busy = await createSdkProject(rest, { name: "Second, in use" });
    await sdk("init-app-user", { key: busy.publishableKey, body: { userId: "erin" } });
    const receiver = await startReceiver(() => ({ status: 410 }));
    try {
      const referrer = await createAppUserOverRest(rest, busy.projectId, "frank");
      const { trackingId } = await trackOverRest(rest, busy.projectId, referrer, "grace");
      await rest("POST", `/projects/${busy.projectId}/webhooks/${busy.campaignId}`, { body: { name: "Gone", url: receiver.url } });
      await rest("POST", `/projects/${busy.projectId}/referrals/reward`, { body: { referralTrackingId: trackingId, eventName: "purchase" } });
      const delivery = await t.db.delivery.findFirstOrThrow({ where: { projectId: busy.projectId } });
      expect(await performAttempt(t.db, delivery.id, testAttemptOptions())).toMatchObject({ outcome: "dead" });
    } finally {
      await receiver.close();
    }
    const onboarding = await getOnboarding(t.db, organizationId);
    expect(onboarding.project).toMatchObject({ id: busy.projectId });
    expect(onboarding.steps).toEqual({ project: true, redirectLink: true, client: true, referral: true, webhookDelivered: false, reward: true });
    // Another organisation's progress is its own.
    expect((await getOnboarding(t.db, (await newOrg()).organizationId)).completed).toBe(0);
  });

  it("answers one project's checklist when asked, and not another organisation's project", async () => {
    const { organizationId, rest } = await newOrg();
    const quiet = await createSdkProject(rest, { name: "Quiet", referralRedirectLink: null });
    const live = await createSdkProject(rest, { name: "Live" });
    await sdk("init-app-user", { key: live.publishableKey, body: { userId: "hana" } });
    expect(await getOnboarding(t.db, organizationId, quiet.projectId)).toMatchObject({ project: { id: quiet.projectId }, completed: 1 });
    expect(await getOnboarding(t.db, organizationId, live.projectId)).toMatchObject({ project: { id: live.projectId }, completed: 3 });
    await expect(getOnboarding(t.db, (await newOrg()).organizationId, live.projectId)).rejects.toMatchObject({ kind: "not_found" });
  });
});
