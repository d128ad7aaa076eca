import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemberRole } from "@/generated/prisma/enums";
import type { SessionToken } from "@/server/api/trpc/context";
import { buildOpenApiDocument } from "@/server/api/openapi/document";
import { signUp } from "@/server/domain/accounts/sign-up";
import { createTestDb, type TestDb } from "@/test/db";
import { insertCompletedReward, type RewardSetup } from "@/test/delivery-fixtures";
import { createProjectOverRest, expectProblem, restClient } from "@/test/rest";
import { callerFor, signInForTest } from "@/test/sessions";

/*
 * The permission table enforced in the procedures: as a dashboard member and viewer, and over REST
 * with owner, member and read-only keys. Then what removing a member and changing a role do to
 * their access and their API keys.
 */

let t: TestDb;
beforeAll(async () => {
  t = await createTestDb();
});
afterAll(() => t.drop());

const PASSWORD = "correct horse";

type Person = { userId: string; email: string; session: SessionToken };

async function person(email: string): Promise<Person & { organizationId: string }> {
  const { user, organization } = await signUp(t.db, { email, password: PASSWORD, organizationName: `Org of ${email}`, name: null });
  return { userId: user.id, email, organizationId: organization.id, session: await signInForTest(t.db, email, PASSWORD) };
}

/** An organisation with an owner, a member and a viewer (memberships made directly: invitations are tested elsewhere). */
async function team(prefix: string) {
  const owner = await person(`${prefix}-owner@example.com`);
  const join = async (role: MemberRole) => {
    const p = await person(`${prefix}-${role}@example.com`);
    await t.db.membership.create({ data: { userId: p.userId, organizationId: owner.organizationId, role } });
    return p;
  };
  const member = await join("member");
  const viewer = await join("viewer");
  const as = (p: Person) => callerFor(t.db, p.session, owner.organizationId);
  return { organizationId: owner.organizationId, owner, member, viewer, as };
}

async function keyFor(caller: Awaited<ReturnType<typeof callerFor>>, role: "owner" | "member" | "readOnly", name: string = role) {
  return (await caller.apiKeys.create({ name, role })).key;
}

describe("the permission table in the dashboard", () => {
  it("a member works with projects but cannot delete one or rotate its secret", async () => {
    const { owner, member, as } = await team("m");
    const asMember = await as(member);
    const project = await asMember.projects.create({ name: "Shop", appType: "Web" });
    await asMember.projects.update({ projectId: project.uniqueId, description: "edited by a member" });
    const { secretHash } = await t.db.project.findUniqueOrThrow({ where: { id: project.uniqueId } });
    await expect(asMember.projects.delete({ projectId: project.uniqueId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asMember.projects.rotateSecret({ projectId: project.uniqueId })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect((await t.db.project.findUniqueOrThrow({ where: { id: project.uniqueId } })).secretHash).toBe(secretHash);
    await (await as(owner)).projects.rotateSecret({ projectId: project.uniqueId });
    await (await as(owner)).projects.delete({ projectId: project.uniqueId });
    expect(await t.db.project.count({ where: { id: project.uniqueId } })).toBe(0);
  });

  it("a viewer changes nothing but can read everything and retry a failed delivery", async () => {
    const { owner, viewer, as } = await team("v");
    const asOwner = await as(owner);
    const project = await asOwner.projects.create({ name: "Shop", appType: "Web", referralRedirectLink: "https://shop.example.com/join" });
    const projectId = project.uniqueId;
    const campaignId = project.campaignId!;
    const webhook = await asOwner.webhooks.create({ projectId, campaignId, name: "Hook", url: "https://hooks.example.com/x", enabled: true, environment: "Both" });
    const user = await asOwner.appUsers.create({ projectId, clientProvidedId: "alice" });

    const asViewer = await as(viewer);
    const writes: [string, () => Promise<unknown>][] = [
      ["projects.create", () => asViewer.projects.create({ name: "No", appType: "Web" })],
      ["projects.update", () => asViewer.projects.update({ projectId, name: "No" })],
      ["projects.delete", () => asViewer.projects.delete({ projectId })],
      ["projects.rotateSecret", () => asViewer.projects.rotateSecret({ projectId })],
      ["campaigns.update", () => asViewer.campaigns.update({ projectId, newUserExperience: { promoText: "No", promoPosition: "top-left" } })],
      ["appUsers.create", () => asViewer.appUsers.create({ projectId, clientProvidedId: "bob" })],
      ["appUsers.update", () => asViewer.appUsers.update({ projectId, uniqueId: user.uniqueId, attributes: { x: "y" } })],
      ["referrals.createLink", () => asViewer.referrals.createLink({ projectId, referrerId: "alice" })],
      ["referrals.track", () => asViewer.referrals.track({ projectId, referralCode: user.referralCode, refereeId: "carol" })],
      ["webhooks.create", () => asViewer.webhooks.create({ projectId, campaignId, name: "No", url: "https://hooks.example.com/y", enabled: true, environment: "Both" })],
      ["webhooks.update", () => asViewer.webhooks.update({ projectId, webhookId: webhook.id, enabled: false })],
      ["webhooks.delete", () => asViewer.webhooks.delete({ projectId, webhookId: webhook.id })],
      ["apiKeys.create", () => asViewer.apiKeys.create({ name: "No", role: "readOnly" })],
      ["invitations.create", () => asViewer.invitations.create({ email: "x@example.com", role: "viewer" })],
      ["organizations.rename", () => asViewer.organizations.rename({ name: "No" })],
      ["organizations.changeRole", () => asViewer.organizations.changeRole({ userId: owner.userId, role: "viewer" })],
      ["organizations.removeMember", () => asViewer.organizations.removeMember({ userId: owner.userId, revokeApiKeyIds: [] })],
      ["auditLog.list", () => asViewer.auditLog.list({})],
    ];
    for (const [name, call] of writes) await expect(call(), name).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await t.db.project.findUniqueOrThrow({ where: { id: projectId } })).toMatchObject({ name: "Shop" });
    expect(await t.db.webhook.findUniqueOrThrow({ where: { id: webhook.id } })).toMatchObject({ enabled: true });
    expect(await t.db.appUser.count({ where: { projectId } })).toBe(1);

    // Reads.
    expect((await asViewer.projects.list()).map((p) => p.uniqueId)).toEqual([projectId]);
    await asViewer.campaigns.get({ projectId });
    await asViewer.appUsers.list({ projectId });
    await asViewer.webhooks.listDeliveryLogs({ projectId, webhookId: webhook.id });
    await asViewer.apiKeys.list();
    await asViewer.organizations.members();

    // A dead-lettered delivery of that webhook: the viewer retries it.
    const projectRow = await t.db.project.findUniqueOrThrow({ where: { id: projectId }, include: { campaign: true } });
    const setup: RewardSetup = {
      org: await t.db.organization.findUniqueOrThrow({ where: { id: owner.organizationId } }),
      project: projectRow,
      campaign: projectRow.campaign!,
      projectSecret: "unused",
      referrer: await t.db.appUser.findFirstOrThrow({ where: { projectId } }),
      referee: await t.db.appUser.create({ data: { projectId, clientProvidedId: "dave", referralCode: "DAVE01" } }),
    };
    const { deliveryIds } = await insertCompletedReward(t.db, setup);
    const deliveryId = deliveryIds[0]!;
    await t.db.delivery.update({ where: { id: deliveryId }, data: { status: "Failed", attemptCount: 5 } });
    const log = await t.db.deliveryAttempt.create({
      data: { projectId, webhookId: webhook.id, deliveryId, attemptNumber: 5, eventType: "purchase", httpStatus: 500, responseTimeMs: 12, success: false },
    });
    expect(await asViewer.webhooks.retryDeliveryLog({ projectId, logId: log.id })).toMatchObject({ deliveryId, status: "Pending" });

    // The support console (issue 24): a viewer searches and reads deliveries and referrals, and retries
    // one delivery or what a filter selects; sending a test event and re-enabling a webhook stay with members.
    const found = await asViewer.deliveries.list({ projectId, search: "dave" });
    expect(found.items.map((d) => d.deliveryId)).toEqual([deliveryId]);
    expect((await asViewer.deliveries.get({ projectId, deliveryId })).attempts).toHaveLength(1);
    const referral = await asViewer.referrals.get({ projectId, trackingId: found.items[0]!.trackingId! });
    expect(referral.deliveries.map((d) => d.deliveryId)).toEqual([deliveryId]);
    await asViewer.referrals.listRewardEvents({ projectId, search: "dave" });
    await t.db.delivery.update({ where: { id: deliveryId }, data: { status: "Failed" } });
    expect(await asViewer.deliveries.retry({ projectId, deliveryId })).toMatchObject({ deliveryId, status: "Pending" });
    await t.db.delivery.update({ where: { id: deliveryId }, data: { status: "Failed" } });
    expect(await asViewer.deliveries.retryMany({ projectId, search: "dave", status: "Failed" })).toMatchObject({ count: 1 });
    expect(await t.db.auditEntry.count({ where: { organizationId: owner.organizationId, action: "delivery.bulk_retry" } })).toBe(1);
    await expect(asViewer.webhooks.sendTest({ projectId, webhookId: webhook.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await t.db.delivery.count({ where: { webhookId: webhook.id, trackingId: null } })).toBe(0);
  });

  it("API keys: a member creates keys up to their own role and deletes only their own; owners delete any", async () => {
    const { owner, member, as } = await team("k");
    const asMember = await as(member);
    await expect(asMember.apiKeys.create({ name: "Too much", role: "owner" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    const mine = await asMember.apiKeys.create({ name: "Mine", role: "member" });
    expect(mine).toMatchObject({ role: "member", createdById: member.userId, createdBy: member.email });
    const ownerKey = await (await as(owner)).apiKeys.create({ name: "Owner's", role: "owner" });
    const listed = await asMember.apiKeys.list();
    expect(listed.keys.map((k) => [k.name, k.role, k.createdBy])).toEqual([
      ["Owner's", "owner", owner.email],
      ["Mine", "member", member.email],
    ]);
    await expect(asMember.apiKeys.delete({ id: ownerKey.id })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await asMember.apiKeys.delete({ id: mine.id });
    const another = await asMember.apiKeys.create({ name: "Another", role: "readOnly" });
    await (await as(owner)).apiKeys.delete({ id: another.id });
    expect((await asMember.apiKeys.list()).keys.map((k) => k.name)).toEqual(["Owner's"]);
  });
});

describe("API keys act with their role over REST", () => {
  it("member keys cannot delete projects or rotate secrets; owner keys can", async () => {
    const { owner, member, as } = await team("rest");
    const memberCall = restClient(t.db, await keyFor(await as(member), "member"));
    const ownerCall = restClient(t.db, await keyFor(await as(owner), "owner"));
    const projectId = await createProjectOverRest(memberCall, "Made by a member key");
    expectProblem(await memberCall("DELETE", `/projects/${projectId}`), 403);
    expectProblem(await memberCall("POST", `/projects/${projectId}/rotate-secret`), 403);
    expect((await ownerCall("POST", `/projects/${projectId}/rotate-secret`)).status).toBe(200);
    expect((await ownerCall("DELETE", `/projects/${projectId}`)).status).toBe(200);
  });

  it("a read-only key may call every GET operation and no other", async () => {
    const { owner, as } = await team("ro");
    const ownerCall = restClient(t.db, await keyFor(await as(owner), "owner"));
    const readOnly = restClient(t.db, await keyFor(await as(owner), "readOnly"));
    const projectId = await createProjectOverRest(ownerCall, "Read me");
    const { campaignId } = (await ownerCall("GET", `/projects/${projectId}/campaign`)).json as { campaignId: string };
    const webhook = (await ownerCall("POST", `/projects/${projectId}/webhooks/${campaignId}`, { body: { name: "Hook", url: "https://hooks.example.com/z" } })).json as { id: string };
    const ids: Record<string, string> = { projectId, campaignId, webhookId: webhook.id, uniqueId: "none", clientProvidedId: "none", logId: "none" };

    const doc = buildOpenApiDocument("http://localhost");
    let gets = 0;
    let writes = 0;
    for (const [path, item] of Object.entries(doc.paths ?? {})) {
      if (!path.startsWith("/public/")) continue;
      for (const method of Object.keys(item as object)) {
        const url = path.replace(/^\/public/, "").replace(/\{(\w+)\}/g, (_, name: string) => ids[name] ?? "none");
        const res = await readOnly(method.toUpperCase(), url, method === "get" ? {} : { body: {} });
        if (method === "get") {
          gets++;
          expect(res.status, `GET ${path}: ${res.text}`).not.toBe(403);
        } else {
          writes++;
          expectProblem(res, 403);
          expect(res.json.detail, `${method} ${path}`).toMatch(/Your role \(readOnly\) does not allow this/);
        }
      }
    }
    expect(gets).toBeGreaterThan(8);
    expect(writes).toBeGreaterThan(8);
    // Nothing was written.
    expect(await t.db.project.findUniqueOrThrow({ where: { id: projectId } })).toMatchObject({ name: "Read me" });
    expect(await t.db.webhook.count({ where: { projectId } })).toBe(1);
  });
});

describe("removing a member and changing roles", () => {
  it("removal shows the member's keys first, revokes them and any created since (named in the answer), and ends the member's access at once", async () => {
    const { organizationId, owner, member, as } = await team("rm");
    const asMember = await as(member);
    const memberKey = await keyFor(asMember, "member", "Member's backend");
    const memberReadKey = await keyFor(asMember, "readOnly", "Member's dashboard");
    const ownerKey = await keyFor(await as(owner), "owner", "Owner's backend");
    const project = await asMember.projects.create({ name: "Shared", appType: "Web" });
    expect((await restClient(t.db, memberKey)("GET", "/projects")).status).toBe(200);

    const asOwner = await as(owner);
    const preview = await asOwner.organizations.removalPreview({ userId: member.userId });
    expect(preview).toMatchObject({ email: member.email, role: "member" });
    expect(preview.apiKeys.map((k) => k.name)).toEqual(["Member's backend", "Member's dashboard"]);

    await expect(asMember.organizations.removeMember({ userId: owner.userId, revokeApiKeyIds: [] })).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await t.db.membership.count({ where: { organizationId } })).toBe(3);
    // A key created after the preview is revoked too, and the answer names it: never kept, never unseen.
    const late = await keyFor(asMember, "readOnly", "Created after the preview");
    const lateId = (await t.db.apiKey.findFirstOrThrow({ where: { name: "Created after the preview" } })).id;
    const confirmed = preview.apiKeys.map((k) => k.id);
    expect(await asOwner.organizations.removeMember({ userId: member.userId, revokeApiKeyIds: confirmed })).toEqual({
      userId: member.userId,
      revokedApiKeyIds: [...confirmed, lateId],
      unconfirmedApiKeys: [{ id: lateId, name: "Created after the preview" }],
    });
    const [entry] = await t.db.auditEntry.findMany({ where: { organizationId, action: "member.remove" } });
    expect(entry!.details).toMatchObject({ unconfirmedApiKeys: ["Created after the preview"] });

    // Their keys answer 401; the owner's key still works.
    for (const key of [memberKey, memberReadKey, late]) expectProblem(await restClient(t.db, key)("GET", "/projects"), 401);
    expect((await restClient(t.db, ownerKey)("GET", "/projects")).status).toBe(200);
    // The same session, on its very next request, no longer acts for the organisation.
    const after = await callerFor(t.db, member.session, organizationId);
    expect((await after.accounts.me()).activeOrganizationId).toBe(member.organizationId);
    expect((await after.projects.list()).map((p) => p.uniqueId)).not.toContain(project.uniqueId);
    await expect(after.projects.get({ projectId: project.uniqueId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("never leaves the organisation without an owner", async () => {
    const { owner, member, as } = await team("last");
    const asOwner = await as(owner);
    await expect(asOwner.organizations.removeMember({ userId: owner.userId, revokeApiKeyIds: [] })).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(asOwner.organizations.changeRole({ userId: owner.userId, role: "member" })).rejects.toMatchObject({ code: "CONFLICT" });
    await asOwner.organizations.changeRole({ userId: member.userId, role: "owner" });
    await asOwner.organizations.changeRole({ userId: owner.userId, role: "member" });
    expect((await (await as(owner)).accounts.me()).role).toBe("member");
  });

  it("a demoted member's keys are lowered to what the new role may create", async () => {
    const { owner, member, as } = await team("demote");
    await (await as(owner)).organizations.changeRole({ userId: member.userId, role: "owner" });
    const asPromoted = await as(member);
    const fullKey = await keyFor(asPromoted, "owner", "Full");
    const call = restClient(t.db, fullKey);
    const projectId = await createProjectOverRest(call, "Demotion");
    await (await as(owner)).organizations.changeRole({ userId: member.userId, role: "member" });
    expect((await t.db.apiKey.findFirstOrThrow({ where: { name: "Full" } })).role).toBe("member");
    expectProblem(await call("DELETE", `/projects/${projectId}`), 403);
    await (await as(owner)).organizations.changeRole({ userId: member.userId, role: "viewer" });
    expect((await t.db.apiKey.findFirstOrThrow({ where: { name: "Full" } })).role).toBe("readOnly");
    expectProblem(await call("PUT", `/projects/${projectId}`, { body: { name: "x" } }), 403);
    expect((await call("GET", `/projects/${projectId}`)).status).toBe(200);
  });
});
