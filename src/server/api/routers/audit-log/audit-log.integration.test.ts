import { describe, expect, it } from "vitest";
import { AUDIT_ACTIONS, type AuditAction } from "@/lib/schemas/audit";
import type { SessionToken } from "@/server/api/trpc/context";
import { handleTrpcRequest } from "@/server/api/trpc/handle-trpc-request";
import { PEER_ADDRESS_HEADER } from "@/server/http/peer-address";
import { signInWithPassword } from "@/server/domain/sessions/sign-in";
import { endSession } from "@/server/domain/sessions/end-sessions";
import { resendExhausted } from "@/server/domain/deliveries/resend-exhausted";
import { testConfig, testServices } from "@/test/config";
import type { TestDb } from "@/test/db";
import { createAppUserOverRest, restClient, trackOverRest } from "@/test/rest";
import { callerFor, signInForTest } from "@/test/sessions";
import type { SmtpTestServer } from "@/test/smtp";
import { APP_URL, signUpForTest, TEST_PASSWORD as PASSWORD, withDbAndMail } from "@/test/accounts";

/*
 * One entry for each audited action, in the organisation it concerns, written with the action (a
 * refused action leaves none), readable by owners only, filtered, paged and exported.
 */

let t: TestDb;
let smtp: SmtpTestServer;
withDbAndMail((env) => ({ t, smtp } = env));

const services = () => ({ config: smtp.config({ NEXTAUTH_URL: APP_URL }) });
/** The dashboard's requests, from the address the peer-address hook would have written. */
const DASHBOARD_IP = "192.0.2.77";
const headers = () => new Headers({ "user-agent": "AuditTest/1.0", [PEER_ADDRESS_HEADER]: DASHBOARD_IP });
const as = (session: SessionToken | null, organizationId: string | null = null) => callerFor(t.db, session, organizationId, services(), headers());

const account = async (email: string) => signUpForTest(t.db, await as(null), email);

const entries = (organizationId: string) => t.db.auditEntry.findMany({ where: { organizationId }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
const lastEntry = async (organizationId: string, action: AuditAction) =>
  (await t.db.auditEntry.findMany({ where: { organizationId, action }, orderBy: { createdAt: "desc" }, take: 1 }))[0];

describe("the audit log", () => {
  // Walks every audited action (dozens of calls, several scrypt hashes): at load 20 it ran past 30 s.
  it("records every audited action with its actor and target", { timeout: 120_000 }, async () => {
    const owner = await account("owner@audit.example");
    const org = owner.organizationId;
    const asOwner = await as(owner.session);
    const expectEntry = async (action: AuditAction, fields: Record<string, unknown> = {}) => {
      const entry = await lastEntry(org, action);
      expect(entry, action).toBeDefined();
      expect(entry, action).toMatchObject(fields);
      return entry!;
    };

    // Sign-in (success and a wrong password), as next-auth's authorize calls it with its route's client address.
    await signInWithPassword(t.db, { email: owner.email, password: PASSWORD, userAgent: "Browser/2", ipAddress: "198.51.100.2" });
    await expectEntry("auth.sign_in", { actorType: "user", actorId: owner.userId, actorLabel: owner.email, targetType: "session", userAgent: "Browser/2", ipAddress: "198.51.100.2" });
    expect(await signInWithPassword(t.db, { email: owner.email, password: "not my password", userAgent: "Guesser/1", ipAddress: "198.51.100.66" })).toBeNull();
    await expectEntry("auth.sign_in_failed", { actorLabel: owner.email, userAgent: "Guesser/1", ipAddress: "198.51.100.66" });

    // Keys, projects, secrets, webhooks: from the dashboard, and over REST as a key.
    const key = await asOwner.apiKeys.create({ name: "Backend", role: "owner" });
    await expectEntry("api_key.create", { actorLabel: owner.email, targetType: "apiKey", targetId: key.id, targetLabel: "Backend", details: { role: "owner", expiresAt: null }, userAgent: "AuditTest/1.0", ipAddress: DASHBOARD_IP });
    const call = restClient(t.db, key.key);
    const created = await call("POST", "/projects", { body: { name: "Shop" }, headers: { [PEER_ADDRESS_HEADER]: "198.51.100.9", "user-agent": "backend/1" } });
    const projectId = created.json.uniqueId as string;
    await expectEntry("project.create", { actorType: "apiKey", actorId: key.id, actorLabel: "Backend", targetType: "project", targetId: projectId, targetLabel: "Shop", userAgent: "backend/1", ipAddress: "198.51.100.9" });
    await asOwner.projects.rotateSecret({ projectId });
    await expectEntry("project.rotate_secret", { actorType: "user", targetId: projectId, targetLabel: "Shop", details: { overlapHours: 0, previousSecretExpiresAt: null } });
    const overlapping = await call("POST", `/projects/${projectId}/rotate-secret`, { body: { overlapHours: 24 } });
    const rotation = await expectEntry("project.rotate_secret", { actorType: "apiKey", details: { overlapHours: 24, previousSecretExpiresAt: overlapping.json.previousSecretExpiresAt } });
    expect(JSON.stringify(rotation)).not.toContain(overlapping.json.projectSecret);
    // Settings: what changed, field by field, before and after.
    await call("PUT", `/projects/${projectId}`, { body: { description: "Our shop", allowedOrigins: ["https://shop.example.com"] } });
    await expectEntry("project.update", {
      actorType: "apiKey",
      targetId: projectId,
      details: { changes: { description: { from: null, to: "Our shop" }, allowedOrigins: { from: [], to: ["https://shop.example.com"] } } },
    });
    await call("PUT", `/projects/${projectId}/campaign`, { body: { referrerExperience: { modal: { modalTitle: "Give 10, get 10" } }, attributionWindowDays: 14 } });
    const campaignEntry = await expectEntry("campaign.update", { actorType: "apiKey", targetType: "campaign", details: { projectId } });
    expect(campaignEntry.details).toMatchObject({ changes: { "referrerExperience.modal.modalTitle": { to: "Give 10, get 10" }, attributionWindowDays: { from: 30, to: 14 } } });
    expect(Object.keys((campaignEntry.details as { changes: object }).changes).sort()).toEqual(["attributionWindowDays", "referrerExperience.modal.modalTitle"]);
    await call("POST", `/projects/${projectId}/rotate-publishable-key`);
    await expectEntry("project.rotate_publishable_key", { actorType: "apiKey", targetId: projectId, targetLabel: "Shop" });
    await asOwner.inboundHooks.update({ projectId, stripeSigningSecret: "whsec_audit_secret_0123456789", eventNames: { "invoice.paid": "purchase" } });
    const inbound = await expectEntry("inbound_hooks.update", {
      actorType: "user",
      targetId: projectId,
      targetLabel: "Shop",
      details: { fields: ["stripeSigningSecret", "eventNames"], changes: { stripeSigningSecret: { changed: true }, "eventNames.invoice.paid": { from: null, to: "purchase" } } },
    });
    expect(JSON.stringify(inbound)).not.toContain("whsec_audit_secret");
    await asOwner.inboundHooks.rotateToken({ projectId });
    await expectEntry("inbound_hooks.rotate_token", { actorType: "user", targetId: projectId, targetLabel: "Shop" });
    const hook = await asOwner.webhooks.create({ projectId, campaignId: created.json.campaignId, name: "Hook", url: "https://hooks.example.com/a", enabled: true, environment: "Both" });
    await expectEntry("webhook.create", { targetId: hook.id, targetLabel: "Hook", details: { projectId, url: "https://hooks.example.com/a", environment: "Both", enabled: true } });
    await asOwner.webhooks.update({ projectId, webhookId: hook.id, enabled: false, secret: "a-brand-new-secret-value" });
    const update = await expectEntry("webhook.update", {
      targetId: hook.id,
      details: { projectId, changed: ["enabled", "secret"], changes: { enabled: { from: true, to: false }, secretHint: { changed: true } } },
    });
    expect(Object.keys((update.details as { changes: object }).changes).sort()).toEqual(["enabled", "secretHint"]);
    expect(JSON.stringify(update)).not.toContain("a-brand-new-secret-value");
    await asOwner.webhooks.update({ projectId, webhookId: hook.id, enabled: true });
    // The dashboard's procedure: a new URL needs a new secret, and the entry says it was replaced.
    await expect(asOwner.webhooks.update({ projectId, webhookId: hook.id, url: "https://hooks.example.com/b" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const moved = await asOwner.webhooks.update({ projectId, webhookId: hook.id, url: "https://hooks.example.com/b", generateSecret: true });
    expect(moved.secret).toMatch(/^whsec_/);
    const movedEntry = await expectEntry("webhook.update", {
      targetId: hook.id,
      details: { projectId, changed: ["secret", "url"], url: { from: "https://hooks.example.com/a", to: "https://hooks.example.com/b" }, secretReplaced: "generated" },
    });
    expect(JSON.stringify(movedEntry)).not.toContain(moved.secret);
    const rotatedHook = await asOwner.webhooks.rotateSecret({ projectId, webhookId: hook.id, overlapHours: 1 });
    const hookRotation = await expectEntry("webhook.rotate_secret", { targetId: hook.id, targetLabel: "Hook", details: { projectId, overlapHours: 1 } });
    expect(JSON.stringify(hookRotation)).not.toContain(rotatedHook.secret);

    // A manual retry of a dead-lettered delivery.
    const tracking = await t.db.referralTracking.create({
      data: {
        projectId,
        campaignId: created.json.campaignId,
        referrerId: (await t.db.appUser.create({ data: { projectId, clientProvidedId: "a", referralCode: "AAAAAA" } })).id,
        refereeId: (await t.db.appUser.create({ data: { projectId, clientProvidedId: "b", referralCode: "BBBBBB" } })).id,
        referralCode: "AAAAAA",
        status: "Completed",
      },
    });
    const delivery = await t.db.delivery.create({ data: { projectId, webhookId: hook.id, trackingId: tracking.id, eventName: "purchase", payload: {}, status: "Failed", attemptCount: 5 } });
    const log = await t.db.deliveryAttempt.create({ data: { projectId, webhookId: hook.id, deliveryId: delivery.id, attemptNumber: 5, eventType: "purchase", responseTimeMs: 1, success: false } });
    await call("POST", `/webhooks/logs/${log.id}/retry`);
    await expectEntry("delivery.retry", { actorType: "apiKey", targetType: "delivery", targetId: delivery.id, details: { projectId, webhookId: hook.id, logId: log.id } });
    // A bulk retry: one entry with the filter and the count (the delivery above is Pending again: none).
    await call("POST", `/projects/${projectId}/deliveries/retry`, { body: { status: "Failed", webhookId: hook.id } });
    await expectEntry("delivery.bulk_retry", { actorType: "apiKey", targetType: "project", targetId: projectId, details: { filter: { status: "Failed", webhookId: hook.id }, count: 0 } });
    // Recovery: an exhausted delivery resent by the service once its webhook is back.
    await t.db.delivery.update({ where: { id: delivery.id }, data: { status: "Failed", failure: "exhausted", lastAttemptAt: new Date() } });
    expect(await resendExhausted(t.db, hook.id)).toBe(1);
    await expectEntry("webhook.recover", { actorType: "service", actorLabel: "Referloop (automatic)", targetId: hook.id, details: { projectId, resent: 1 } });
    // Reviews: with a hold on the campaign, two rewards wait; one is approved, one denied.
    await call("PUT", `/projects/${projectId}/campaign`, { body: { rewardRules: { holdDays: 30 } } });
    await expectEntry("campaign.update_reward_rules", { actorType: "apiKey", details: { projectId, changes: { "rewardRules.holdDays": { to: 30 } } } });
    const held = async (name: string) => {
      const referrer = await createAppUserOverRest(call, projectId, `${name}-referrer`);
      await createAppUserOverRest(call, projectId, `${name}-referee`);
      const { trackingId } = await trackOverRest(call, projectId, referrer, `${name}-referee`);
      const res = await call("POST", `/projects/${projectId}/referrals/reward`, { body: { ReferralTrackingId: trackingId, EventName: "signup", Environment: "Production" } });
      expect(res.json.reason, res.text).toBe("held_for_review");
      return trackingId;
    };
    const approved = await held("approved");
    await call("POST", `/projects/${projectId}/reviews/${approved}/approve`);
    await expectEntry("review.approve", { actorType: "apiKey", targetId: approved });
    // Revoking the approved reward: one entry with what it did and why.
    expect((await call("POST", `/projects/${projectId}/referrals/${approved}/revoke`, { body: { reason: "Refunded" } })).json.revoked).toBe("granted");
    await expectEntry("referral.revoke", { actorType: "apiKey", targetType: "referralTracking", targetId: approved, details: { projectId, revoked: "granted", reason: "Refunded" } });
    const denied = await held("denied");
    await call("POST", `/projects/${projectId}/reviews/${denied}/deny`);
    await expectEntry("review.deny", { actorType: "apiKey", targetId: denied });
    // Data rights: an app user exported, then erased (the entry names them by id only).
    const person = await createAppUserOverRest(call, projectId, "erased-person");
    expect((await call("GET", `/projects/${projectId}/users/${person.uniqueId}/export`)).status).toBe(200);
    await expectEntry("app_user.export", { actorType: "apiKey", targetId: person.uniqueId });
    expect((await call("DELETE", `/projects/${projectId}/users/${person.uniqueId}`)).status).toBe(200);
    await expectEntry("app_user.erase", { actorType: "apiKey", targetType: "appUser", targetId: person.uniqueId });

    // Exports: who took which file, with its filter.
    expect((await call("GET", `/projects/${projectId}/exports/app-users.csv?search=erased`)).status).toBe(200);
    await expectEntry("export.app_users", { actorType: "apiKey", targetType: "project", targetId: projectId, details: { filter: { search: "erased" } } });
    expect((await call("GET", `/projects/${projectId}/exports/referrals.csv?status=Completed`)).status).toBe(200);
    await expectEntry("export.referrals", { targetId: projectId, details: { filter: { status: "Completed" } } });
    expect((await call("GET", `/projects/${projectId}/exports/deliveries.csv?webhookId=${hook.id}`)).status).toBe(200);
    await expectEntry("export.deliveries", { targetId: projectId, details: { filter: { webhookId: hook.id } } });
    expect((await call("GET", `/projects/${projectId}/exports/review-decisions.csv`)).status).toBe(200);
    await expectEntry("export.review_decisions", { targetId: projectId, details: { filter: {} } });
    expect((await call("GET", `/projects/${projectId}/exports/leaderboard.csv`)).status).toBe(200);
    await expectEntry("export.leaderboard", { targetId: projectId, details: { filter: {} } });
    await asOwner.auditLog.export({ format: "json", action: "export.referrals" });
    await expectEntry("audit_log.export", { actorType: "user", details: { format: "json", filter: { action: "export.referrals" }, entries: 1 } });

    // A test event (to an address nothing answers: the entry records the sending, whatever came back).
    const test = await call("POST", `/projects/${projectId}/webhooks/${hook.id}/test`);
    expect(test.status, test.text).toBe(200);
    await expectEntry("webhook.test", { actorType: "apiKey", targetType: "webhook", targetId: hook.id, targetLabel: "Hook", details: { projectId, deliveryId: test.json.delivery.deliveryId } });

    await asOwner.webhooks.delete({ projectId, webhookId: hook.id });
    await expectEntry("webhook.delete", { targetId: hook.id, targetLabel: "Hook" });
    await call("DELETE", `/projects/${projectId}`);
    await expectEntry("project.delete", { actorType: "apiKey", targetId: projectId, targetLabel: "Shop" });

    // Members: invitation, acceptance, role change, removal with the keys it revokes.
    const invitation = await asOwner.invitations.create({ email: "joiner@audit.example", role: "member" });
    await expectEntry("invitation.create", { targetType: "invitation", targetId: invitation.id, targetLabel: "joiner@audit.example", details: { role: "member" } });
    const joiner = await account("joiner@audit.example");
    await t.db.user.update({ where: { id: joiner.userId }, data: { emailVerifiedAt: new Date() } });
    const { links } = await smtp.mailTo("joiner@audit.example", /invited you/);
    await (await as(joiner.session)).invitations.accept({ token: decodeURIComponent(new URL(links[0]!).pathname.split("/").pop()!) });
    await expectEntry("invitation.accept", { actorId: joiner.userId, actorLabel: "joiner@audit.example", targetType: "member", targetId: joiner.userId, details: { role: "member", invitationId: invitation.id }, ipAddress: DASHBOARD_IP });
    const other = await asOwner.invitations.create({ email: "never@audit.example", role: "viewer" });
    await asOwner.invitations.revoke({ id: other.id });
    await expectEntry("invitation.revoke", { targetId: other.id, targetLabel: "never@audit.example" });
    await asOwner.organizations.changeRole({ userId: joiner.userId, role: "viewer" });
    await expectEntry("member.role_change", { targetId: joiner.userId, details: { from: "member", to: "viewer", loweredApiKeys: 0 } });
    await asOwner.organizations.changeRole({ userId: joiner.userId, role: "member" });
    const joinerKey = await (await as(joiner.session, org)).apiKeys.create({ name: "Joiner's key", role: "member" });
    await asOwner.organizations.removeMember({ userId: joiner.userId, revokeApiKeyIds: [joinerKey.id] });
    await expectEntry("member.remove", { targetId: joiner.userId, targetLabel: "joiner@audit.example", details: { role: "member", revokedApiKeys: ["Joiner's key"] } });
    await expectEntry("api_key.delete", { targetId: joinerKey.id, details: { reason: "creator joiner@audit.example removed from the organisation" } });
    const rolled = await asOwner.apiKeys.roll({ id: key.id, overlapHours: 24 });
    const roll = await expectEntry("api_key.roll", { targetId: key.id, targetLabel: "Backend", details: { newKeyId: rolled.id, overlapHours: 24 } });
    expect(JSON.stringify(roll)).not.toContain(rolled.key);
    await asOwner.apiKeys.delete({ id: key.id });
    await expectEntry("api_key.delete", { targetId: key.id, targetLabel: "Backend" });
    const { name: previousName } = await t.db.organization.findUniqueOrThrow({ where: { id: org } });
    expect(await asOwner.organizations.rename({ name: "Audited Ltd" })).toEqual({ id: org, name: "Audited Ltd", previousName });
    await expectEntry("organization.rename", { targetType: "organization", targetId: org, targetLabel: "Audited Ltd", details: { previousName } });
    expect((await t.db.organization.findUniqueOrThrow({ where: { id: org } })).name).toBe("Audited Ltd");

    // Account events: password change, sessions, e-mail verification, password reset, sign-out.
    await signInForTest(t.db, owner.email, PASSWORD); // a second device, ended by the change
    await asOwner.accounts.changePassword({ currentPassword: PASSWORD, newPassword: "another good secret" });
    await expectEntry("password.change", { actorId: owner.userId, details: { endedSessions: 2 }, userAgent: "AuditTest/1.0", ipAddress: DASHBOARD_IP });
    const third = await signInForTest(t.db, owner.email, "another good secret");
    await asOwner.accounts.revokeSession({ sessionId: third.sessionId });
    await expectEntry("session.revoke", { targetType: "session", targetId: third.sessionId, ipAddress: DASHBOARD_IP });
    const verify = new URL((await smtp.mailTo(owner.email, /Verify/)).links[0]!);
    await (await as(null)).accounts.verifyEmail({ token: verify.searchParams.get("token")! });
    await expectEntry("email.verify", { actorId: owner.userId, userAgent: "AuditTest/1.0", ipAddress: DASHBOARD_IP });
    await (await as(null)).accounts.requestPasswordReset({ email: owner.email });
    const reset = new URL((await smtp.mailTo(owner.email, /Reset/)).links[0]!);
    await (await as(null)).accounts.resetPassword({ token: reset.searchParams.get("token")!, newPassword: "reset and renewed" });
    await expectEntry("password.reset", { actorId: owner.userId, details: { endedSessions: 1 }, ipAddress: DASHBOARD_IP });
    const fourth = await signInForTest(t.db, owner.email, "reset and renewed", { userAgent: "Laptop/4", ipAddress: "198.51.100.4" });
    // next-auth's sign-out event: the session's device, the sign-out request's address.
    await endSession(t.db, owner.userId, fourth.sessionId, "198.51.100.44");
    await expectEntry("auth.sign_out", { targetId: fourth.sessionId, userAgent: "Laptop/4", ipAddress: "198.51.100.44" });
    const fifth = await signInForTest(t.db, owner.email, "reset and renewed");
    await (await as(fifth)).accounts.signOutEverywhere();
    await expectEntry("session.revoke_all", { details: { ended: 1 }, ipAddress: DASHBOARD_IP });

    // Every action of the table appears; the joiner's own organisation got its own account events only.
    const actions = new Set((await entries(org)).map((e) => e.action));
    const expected: AuditAction[] = [
      "auth.sign_in", "auth.sign_in_failed", "auth.sign_out", "session.revoke", "session.revoke_all", "password.change", "password.reset",
      "email.verify", "api_key.create", "api_key.delete", "api_key.roll", "project.create", "project.update", "campaign.update", "campaign.update_reward_rules",
      "export.app_users", "export.referrals", "export.deliveries", "export.review_decisions", "export.leaderboard", "audit_log.export", "webhook.rotate_secret", "webhook.recover", "project.delete", "project.rotate_secret", "project.rotate_publishable_key", "webhook.create",
      "webhook.update", "webhook.delete", "webhook.test", "delivery.retry", "delivery.bulk_retry", "review.approve", "review.deny", "referral.revoke", "app_user.export", "app_user.erase", "inbound_hooks.update", "inbound_hooks.rotate_token", "invitation.create", "invitation.revoke", "invitation.accept", "member.remove",
      "member.role_change", "organization.rename",
    ];
    expect([...actions].sort()).toEqual([...expected].sort());
    expect([...expected].sort()).toEqual([...AUDIT_ACTIONS].sort());
    expect((await entries(joiner.organizationId)).map((e) => e.action)).toEqual(["auth.sign_in"]);
  });

  it("a refused action leaves no entry, and account events go to each organisation of the account", async () => {
    const owner = await account("refused@audit.example");
    const before = await t.db.auditEntry.count({ where: { organizationId: owner.organizationId } });
    await expect((await as(owner.session)).projects.delete({ projectId: "no-such-project" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect((await as(owner.session)).apiKeys.delete({ id: "no-such-key" })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await t.db.auditEntry.count({ where: { organizationId: owner.organizationId } })).toBe(before);

    const second = await (await as(owner.session)).organizations.create({ name: "Second" });
    await signInForTest(t.db, owner.email, PASSWORD);
    for (const organizationId of [owner.organizationId, second.id]) {
      expect(await t.db.auditEntry.count({ where: { organizationId, action: "auth.sign_in" } }), organizationId).toBeGreaterThanOrEqual(1);
    }
  });

  it("records the client's address from the peer, and a forwarded one only from a trusted proxy", async () => {
    const owner = await account("address@audit.example");
    /** The address the entry of an API key created through the dashboard's tRPC endpoint records, for a Request with these headers. */
    const recordedFor = async (name: string, requestHeaders: Record<string, string>, trustedProxies = "") => {
      const req = new Request("http://localhost/api/trpc/apiKeys.create", {
        method: "POST",
        headers: { "content-type": "application/json", ...requestHeaders },
        body: JSON.stringify({ name, role: "readOnly" }),
      });
      const using = testServices(t.db, { config: testConfig({ REFERLOOP_TRUSTED_PROXIES: trustedProxies }) });
      const res = await handleTrpcRequest(req, using, async () => ({ token: owner.session, organizationId: owner.organizationId }));
      expect(res.status, await res.clone().text()).toBe(200);
      const entry = await t.db.auditEntry.findFirstOrThrow({ where: { organizationId: owner.organizationId, action: "api_key.create", targetLabel: name } });
      return entry.ipAddress;
    };
    const forwarded = { "x-forwarded-for": "198.51.100.7" };
    // No proxy trusted: the peer is the client, whatever X-Forwarded-For claims.
    expect(await recordedFor("direct", { [PEER_ADDRESS_HEADER]: "203.0.113.10", ...forwarded })).toBe("203.0.113.10");
    // Proxies trusted, but this peer is not one: its X-Forwarded-For is still only a claim.
    expect(await recordedFor("untrusted peer", { [PEER_ADDRESS_HEADER]: "203.0.113.10", ...forwarded }, "10.0.0.0/8")).toBe("203.0.113.10");
    // From a trusted proxy: the client it forwarded for, normalised (IPv4-mapped peer, upper-case IPv6).
    expect(await recordedFor("behind proxy", { [PEER_ADDRESS_HEADER]: "10.0.0.2", ...forwarded }, "10.0.0.0/8")).toBe("198.51.100.7");
    expect(await recordedFor("behind proxy, v6", { [PEER_ADDRESS_HEADER]: "::ffff:10.0.0.2", "x-forwarded-for": "2001:DB8::7, 10.1.1.1" }, "10.0.0.0/8")).toBe("2001:db8::7");
    // Without the peer-address hook's header the address is unknown, never the forwarded claim.
    expect(await recordedFor("no peer", forwarded, "10.0.0.0/8")).toBeNull();
  });

  it("is for owners, filtered by action, actor, address and time, paged, and exported as CSV and JSON", async () => {
    const owner = await account("filter@audit.example");
    const org = owner.organizationId;
    const asOwner = await as(owner.session);
    for (const name of ["One", "Two", "=Three"]) await asOwner.apiKeys.create({ name, role: "readOnly" });
    const member = await account("member@audit.example");
    await t.db.membership.create({ data: { userId: member.userId, organizationId: org, role: "member" } });
    await expect((await as(member.session, org)).auditLog.list({})).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await as(member.session, org)).auditLog.export({ format: "csv" })).rejects.toMatchObject({ code: "FORBIDDEN" });

    const all = await asOwner.auditLog.list({});
    expect(all).toMatchObject({ page: 1, pageSize: 20, hasNextPage: false });
    expect(all.items.map((e) => e.action)).toEqual(["api_key.create", "api_key.create", "api_key.create", "auth.sign_in"]);
    expect(all.totalCount).toBe(4);
    expect(all.items[0]).toMatchObject({ targetLabel: "=Three", actorLabel: owner.email });

    const paged = await asOwner.auditLog.list({ action: "api_key.create", pageSize: 2, page: 2 });
    expect(paged).toMatchObject({ totalCount: 3, page: 2, pageSize: 2, hasNextPage: false });
    expect(paged.items.map((e) => e.targetLabel)).toEqual(["One"]);
    expect((await asOwner.auditLog.list({ actor: "FILTER@audit" })).totalCount).toBe(4);
    expect((await asOwner.auditLog.list({ actor: "someone else" })).totalCount).toBe(0);
    // By client address: the three keys came from the dashboard's; the sign-in (signInForTest) from none known.
    expect((await asOwner.auditLog.list({ ip: DASHBOARD_IP })).items.map((e) => e.targetLabel)).toEqual(["=Three", "Two", "One"]);
    expect((await asOwner.auditLog.list({ ip: `::ffff:${DASHBOARD_IP}` })).totalCount).toBe(3);
    expect((await asOwner.auditLog.list({ ip: "192.0.2.78" })).totalCount).toBe(0);
    await expect(asOwner.auditLog.list({ ip: "192.0.2." })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await asOwner.auditLog.export({ format: "csv", ip: DASHBOARD_IP })).body.trimEnd().split("\r\n")).toHaveLength(4);
    const newest = new Date(all.items[0]!.createdAt);
    expect((await asOwner.auditLog.list({ from: newest.toISOString() })).items.map((e) => e.targetLabel)).toContain("=Three");
    expect((await asOwner.auditLog.list({ to: new Date(new Date(all.items[3]!.createdAt).getTime() + 1).toISOString() })).items.map((e) => e.action)).toEqual(["auth.sign_in"]);
    await expect(asOwner.auditLog.list({ from: newest.toISOString(), to: new Date(newest.getTime() - 1000).toISOString() })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(asOwner.auditLog.list({ action: "made.up" as AuditAction })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const csv = await asOwner.auditLog.export({ format: "csv", action: "api_key.create" });
    expect(csv).toMatchObject({ contentType: "text/csv; charset=utf-8", truncated: false, filename: expect.stringMatching(/^audit-log-.+\.csv$/) });
    const lines = csv.body.trimEnd().split("\r\n");
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe("createdAt,action,actorType,actorId,actorLabel,targetType,targetId,targetLabel,details,userAgent,ipAddress");
    expect(lines[1]).toContain(",'=Three,");
    expect(lines[1]).toMatch(/,AuditTest\/1\.0,192\.0\.2\.77$/);
    // Each export is itself an entry (after its own reading: a file never lists its own export).
    const json = await asOwner.auditLog.export({ format: "json", action: "api_key.create" });
    expect(JSON.parse(json.body)).toMatchObject({ truncated: false, entries: all.items.filter((e) => e.action === "api_key.create") });
    expect((await asOwner.auditLog.list({ action: "audit_log.export" })).totalCount).toBe(3);
    expect(all.items[0]).toMatchObject({ userAgent: "AuditTest/1.0", ipAddress: DASHBOARD_IP });
    expect(JSON.parse(json.body).entries[0]).toMatchObject({ ipAddress: DASHBOARD_IP });
    // Another organisation's owner sees none of it.
    const stranger = await account("stranger@audit.example");
    expect((await (await as(stranger.session)).auditLog.list({})).items.map((e) => e.actorLabel)).toEqual(["stranger@audit.example"]);
  });
});
