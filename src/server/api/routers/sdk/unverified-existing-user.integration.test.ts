import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { createTestDb, type TestDb } from "@/test/db";
import { uniqueName } from "@/test/names";
import { createOrgWithApiKey, restClient, trackOverRest, type RestClient } from "@/test/rest";
import { createSdkProject, sdkClient, type SdkClient } from "@/test/sdk";

/*
 * Issue 34, item 3: `init-app-user` with the publishable key and no `userHash` for an existing user
 * writes nothing about that user: anyone can send any userId, from any address. With the same-device
 * rule on, a stranger's call from the referrer's address used to record a sighting of the user there,
 * and the user's next referral failed `same_device`.
 */

let t: TestDb;
let call: RestClient;
let sdk: SdkClient;
beforeAll(async () => {
  t = await createTestDb();
  call = restClient(t.db, (await createOrgWithApiKey(t.db)).apiKey);
  sdk = sdkClient(t.db);
});
afterAll(() => t?.drop());

const REFERRER_ADDRESS = "203.0.113.7";
const USER_ADDRESS = "198.51.100.20";

/** Everything stored about the project's users, their sightings, timelines and referrals, in a stable order. */
async function snapshot(projectId: string) {
  const [users, sightings, activity, referrals] = await Promise.all([
    t.db.appUser.findMany({ where: { projectId }, orderBy: { id: "asc" } }),
    t.db.appUserSighting.findMany({ where: { projectId }, orderBy: { id: "asc" } }),
    t.db.activity.findMany({ where: { projectId }, orderBy: { id: "asc" } }),
    t.db.referralTracking.findMany({ where: { projectId }, orderBy: { id: "asc" } }),
  ]);
  return { users, sightings, activity, referrals };
}

describe("an unverified init-app-user for an existing user", () => {
  it("writes nothing about the user, so it cannot fail their next referral same_device", async () => {
    const project = await createSdkProject(call);
    const rules = await call("PUT", `/projects/${project.projectId}/campaign`, { body: { rewardRules: { sameDevice: "block" } } });
    expect(rules.status, rules.text).toBe(200);
    const init = (key: string, userId: string, address: string, extra: Record<string, unknown> = {}) =>
      sdk("init-app-user", { key, body: { userId, ...extra }, headers: { [PEER_ADDRESS_HEADER]: address } });

    // The referrer's app and the user's app, each from its own address (the backend speaks with sk_).
    const referrer = await init(project.secret, uniqueName("referrer"), REFERRER_ADDRESS);
    expect(referrer.status, referrer.text).toBe(200);
    const userId = uniqueName("user");
    expect((await init(project.secret, userId, USER_ADDRESS, { attributes: { plan: "pro" } })).status).toBe(200);
    const before = await snapshot(project.projectId);
    expect(before.sightings.map((s) => s.value).sort()).toEqual([USER_ADDRESS, REFERRER_ADDRESS].sort());

    // A stranger with the page's pk_ key names the user, from the referrer's address, with new attributes.
    const stranger = await init(project.publishableKey, userId, REFERRER_ADDRESS, { attributes: { plan: "free" } });
    expect(stranger.status, stranger.text).toBe(200);
    expect(stranger.json).toMatchObject({ clientProvidedId: userId, referralTrackingId: null });
    expect(await snapshot(project.projectId)).toEqual(before);

    // The user's referral by that referrer is rewarded: they were never seen from the referrer's address.
    const { trackingId } = await trackOverRest(call, project.projectId, { referralCode: referrer.json.referralCode }, userId);
    const reward = await call("POST", `/projects/${project.projectId}/referrals/reward`, { body: { ReferralTrackingId: trackingId, EventName: "purchase" } });
    expect(reward.status, reward.text).toBe(200);
    expect(reward.json).toMatchObject({ rewardClaimed: true });

    // A new user is still the caller's to create (and, the rule on, seen where it was created).
    const fresh = uniqueName("fresh");
    expect((await init(project.publishableKey, fresh, REFERRER_ADDRESS)).status).toBe(200);
    const created = await t.db.appUser.findUniqueOrThrow({ where: { projectId_clientProvidedId: { projectId: project.projectId, clientProvidedId: fresh } } });
    expect(await t.db.appUserSighting.count({ where: { appUserId: created.id } })).toBe(1);
  });
});
