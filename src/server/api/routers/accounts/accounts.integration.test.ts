import type { TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { problemFromError } from "@/server/http/problem";
import { loadSessionAccess } from "@/server/domain/sessions/load-session-access";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
import { endSession } from "@/server/domain/sessions/end-sessions";
import type { TestDb } from "@/test/db";
import { callerFor, signInForTest } from "@/test/sessions";
import type { SmtpTestServer } from "@/test/smtp";
import { APP_URL, signUpForTest, TEST_PASSWORD as PASSWORD, withDbAndMail } from "@/test/accounts";

let t: TestDb;
let smtp: SmtpTestServer;
withDbAndMail((env) => ({ t, smtp } = env));

/** Sign-up e-mails a verification link: through the test's SMTP server. */
const anonymous = () => callerFor(t.db, null, null, { config: smtp.config({ NEXTAUTH_URL: APP_URL }) });

/** A new account with its own organisation, signed in once, and the API as it calls it. */
async function signUp(email: string, organizationName?: string) {
  const created = await signUpForTest(t.db, await anonymous(), email, organizationName);
  return { ...created, as: (organizationId: string | null = null) => callerFor(t.db, created.session, organizationId) };
}

describe("accounts and organisations", () => {
  it("signs up an owner of a new organisation, with a memory-hard password hash and an unverified address", async () => {
    const { userId, organizationId, as } = await signUp("Ada@Example.com");
    const user = await t.db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.email).toBe("ada@example.com");
    expect(user.passwordHash).toMatch(/^scrypt\$32768\$8\$1\$/);
    expect(user.passwordHash).not.toContain(PASSWORD);
    expect(await (await as()).accounts.me()).toMatchObject({ email: "ada@example.com", emailVerified: false, activeOrganizationId: organizationId, role: "owner" });
    expect(await verifyCredentials(t.db, "ADA@example.com", PASSWORD)).toMatchObject({ id: userId });
    expect(await verifyCredentials(t.db, "ada@example.com", "wrong horse")).toBeNull();
    expect(await verifyCredentials(t.db, "nobody@example.com", PASSWORD)).toBeNull();
    const { links } = await smtp.mailTo("ada@example.com", /Verify/);
    expect(links).toEqual([expect.stringMatching(/^https:\/\/app\.example\.com\/verify-email\?token=[\w-]{43}$/)]);
  });

  it("refuses a second account with the same e-mail, and bad sign-up input", async () => {
    await signUp("dup@example.com");
    await expect(signUp("DUP@example.com")).rejects.toMatchObject({ code: "CONFLICT" });
    const caller = await anonymous();
    await expect(caller.accounts.signUp({ email: "not-an-email", password: PASSWORD, organizationName: "X" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.accounts.signUp({ email: "short@example.com", password: "short", organizationName: "X" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await t.db.user.count({ where: { email: "short@example.com" } })).toBe(0);
    // The password rules of the one policy, each reported on the password field.
    for (const [email, password, message] of [
      ["spaces@example.com", " ".repeat(12), "must not be only spaces"],
      ["common@example.com", "Password123", "is one of the most common passwords: choose one that is harder to guess"],
      ["alexander.hamilton@example.com", "Alexander.Hamilton", "must not be your e-mail address or the part before the @"],
    ]) {
      const refused = caller.accounts.signUp({ email: email!, password: password!, organizationName: "X" });
      await expect(refused).rejects.toMatchObject({ code: "BAD_REQUEST" });
      const problem = problemFromError((await refused.catch((e: unknown) => e)) as TRPCError);
      expect(problem.errors).toEqual([{ field: "password", rule: "custom", message }]);
      expect(await t.db.user.count({ where: { email: email! } })).toBe(0);
    }
  });

  it("lets a user belong to several organisations and switch between them", async () => {
    const { organizationId, as } = await signUp("multi@example.com");
    const second = await (await as()).organizations.create({ name: "Second" });
    const inSecond = await as(second.id);
    await inSecond.projects.create({ name: "Only in second", appType: "Web" });
    expect((await inSecond.projects.list()).map((p) => p.name)).toEqual(["Only in second"]);
    expect(await (await as(organizationId)).projects.list()).toEqual([]);
    expect((await inSecond.accounts.me()).organizations.map((o) => o.name)).toEqual(["Org of multi@example.com", "Second"]);
  });

  it("does not accept a session of a deleted account", async () => {
    const { userId, as } = await signUp("gone@example.com");
    await t.db.user.delete({ where: { id: userId } });
    await expect((await as()).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });
});

describe("revocable sessions", () => {
  it("refuses a replayed session after sign-out, while the account's other sessions go on", async () => {
    const { session, userId } = await signUp("replay@example.com");
    const other = await signInForTest(t.db, "replay@example.com", PASSWORD);
    expect((await (await callerFor(t.db, session)).accounts.me()).userId).toBe(userId);
    await endSession(t.db, userId, session.sessionId, null);
    // The same cookie, replayed: its session no longer exists on the server.
    await expect((await callerFor(t.db, session)).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await expect((await callerFor(t.db, session)).projects.list()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await (await callerFor(t.db, other)).accounts.me()).userId).toBe(userId);
    // Signing out twice is quiet.
    await endSession(t.db, userId, session.sessionId, null);
  });

  it("refuses a session id that belongs to another account, and an expired session", async () => {
    const a = await signUp("mine@example.com");
    const b = await signUp("theirs@example.com");
    await expect((await callerFor(t.db, { userId: a.userId, sessionId: b.session.sessionId })).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    await t.db.session.update({ where: { id: a.session.sessionId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect((await callerFor(t.db, a.session)).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("lists the account's sessions with their device, address and last use, and revokes one", async () => {
    const { session } = await signUp("devices@example.com");
    const phone = await signInForTest(t.db, "devices@example.com", PASSWORD, { userAgent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1", ipAddress: "2001:db8::42" });
    const caller = await callerFor(t.db, session);
    const listed = await caller.accounts.sessions();
    expect(listed.map((s) => [s.id, s.current, s.userAgent, s.ipAddress])).toEqual(
      expect.arrayContaining([
        [session.sessionId, true, "vitest", null],
        [phone.sessionId, false, "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1", "2001:db8::42"],
      ]),
    );
    expect((await t.db.session.findUniqueOrThrow({ where: { id: phone.sessionId } })).ipAddress).toBe("2001:db8::42");
    expect(listed).toHaveLength(2);
    await caller.accounts.revokeSession({ sessionId: phone.sessionId });
    await expect((await callerFor(t.db, phone)).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await caller.accounts.sessions()).map((s) => s.id)).toEqual([session.sessionId]);
    // Another account's session is not found, and stays.
    const stranger = await signUp("stranger@example.com");
    await expect(caller.accounts.revokeSession({ sessionId: stranger.session.sessionId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await (await stranger.as()).accounts.me()).email).toBe("stranger@example.com");
  });

  it("writes lastSeenAt (and slides the expiry) at most once a minute, in the same statement as the check", async () => {
    const { userId, session } = await signUp("touch@example.com");
    const before = await t.db.session.findUniqueOrThrow({ where: { id: session.sessionId } });
    await loadSessionAccess(t.db, userId, session.sessionId, new Date(before.lastSeenAt.getTime() + 30_000));
    expect((await t.db.session.findUniqueOrThrow({ where: { id: session.sessionId } })).lastSeenAt).toEqual(before.lastSeenAt);
    const later = new Date(before.lastSeenAt.getTime() + 61_000);
    const access = await loadSessionAccess(t.db, userId, session.sessionId, later);
    expect(access).toMatchObject({ email: "touch@example.com", memberships: [{ role: "owner" }] });
    const after = await t.db.session.findUniqueOrThrow({ where: { id: session.sessionId } });
    expect(after.lastSeenAt).toEqual(later);
    expect(after.expiresAt.getTime()).toBeGreaterThan(before.expiresAt.getTime());
  });

  it("signs out everywhere: every session of the account ends, this one included", async () => {
    const { session } = await signUp("everywhere@example.com");
    const laptop = await signInForTest(t.db, "everywhere@example.com", PASSWORD);
    expect(await (await callerFor(t.db, session)).accounts.signOutEverywhere()).toEqual({ ended: 2 });
    for (const s of [session, laptop]) await expect((await callerFor(t.db, s)).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
  });

  it("changing the password needs the current one, applies the policy, and ends every other session", async () => {
    const { session, userId } = await signUp("change@example.com");
    const stolen = await signInForTest(t.db, "change@example.com", PASSWORD);
    const caller = await callerFor(t.db, session);
    await expect(caller.accounts.changePassword({ currentPassword: "not it at all", newPassword: "a brand new secret" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(caller.accounts.changePassword({ currentPassword: PASSWORD, newPassword: "password123" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const asEmail = await caller.accounts.changePassword({ currentPassword: PASSWORD, newPassword: "change@example.com" }).catch((e: TRPCError) => e);
    expect(problemFromError(asEmail as TRPCError).errors).toEqual([{ field: "newPassword", rule: "custom", message: "must not be your e-mail address or the part before the @" }]);
    // Nothing changed so far: the other session still works.
    expect((await (await callerFor(t.db, stolen)).accounts.me()).userId).toBe(userId);

    expect(await caller.accounts.changePassword({ currentPassword: PASSWORD, newPassword: "a brand new secret" })).toEqual({ endedSessions: 1 });
    await expect((await callerFor(t.db, stolen)).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect((await caller.accounts.me()).userId).toBe(userId);
    expect(await verifyCredentials(t.db, "change@example.com", PASSWORD)).toBeNull();
    expect(await verifyCredentials(t.db, "change@example.com", "a brand new secret")).toMatchObject({ id: userId });
  });

  it("a wrong password opens no session", async () => {
    await signUp("wrong@example.com");
    const sessions = await t.db.session.count();
    await expect(signInForTest(t.db, "wrong@example.com", "not the password")).rejects.toThrow(/failed/);
    await expect(signInForTest(t.db, "nobody-here@example.com", PASSWORD)).rejects.toThrow(/failed/);
    expect(await t.db.session.count()).toBe(sessions);
  });
});
