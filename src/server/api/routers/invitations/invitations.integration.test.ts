import { describe, expect, it } from "vitest";
import type { SessionToken } from "@/server/api/trpc/context";
import type { TestDb } from "@/test/db";
import { callerFor } from "@/test/sessions";
import type { SmtpTestServer } from "@/test/smtp";
import type { TRPCError } from "@trpc/server";
import { problemFromError } from "@/server/http/problem";
import { APP_URL, signUpForTest, TEST_PASSWORD, withDbAndMail } from "@/test/accounts";
import { signInForTest } from "@/test/sessions";

/*
 * Invitations and e-mail verification end to end: every link is taken from the e-mail a real SMTP
 * server in this process received, as a person would follow it.
 */

let t: TestDb;
let smtp: SmtpTestServer;
withDbAndMail((env) => ({ t, smtp } = env));

const services = () => ({ config: smtp.config({ NEXTAUTH_URL: APP_URL }) });
const as = (session: SessionToken | null, organizationId: string | null = null) => callerFor(t.db, session, organizationId, services());

async function account(email: string, { verified = false } = {}) {
  const { userId, organizationId, session } = await signUpForTest(t.db, await as(null), email);
  if (verified) await followVerification(email, session);
  return { userId, organizationId, session };
}

/** The token at the end of the newest link e-mailed to `to` whose subject matches. */
async function linkTo(to: string, subject: RegExp): Promise<URL> {
  const { links } = await smtp.mailTo(to, subject);
  expect(links).toHaveLength(1);
  return new URL(links[0]!);
}

async function followVerification(email: string, session: SessionToken) {
  const link = await linkTo(email, /Verify your e-mail/);
  expect(`${link.origin}${link.pathname}`).toBe(`${APP_URL}/verify-email`);
  return (await as(session)).accounts.verifyEmail({ token: link.searchParams.get("token")! });
}

const invitationToken = (link: URL) => {
  expect(link.origin).toBe(APP_URL);
  const match = /^\/invitations\/([^/]+)$/.exec(link.pathname);
  expect(match).not.toBeNull();
  return decodeURIComponent(match![1]!);
};

describe("e-mail verification", () => {
  it("sign-up sends a link that verifies the address once; resending replaces it", async () => {
    const ada = await account("ada@example.com");
    const first = (await linkTo("ada@example.com", /Verify/)).searchParams.get("token")!;
    expect(await (await as(ada.session)).accounts.resendVerification()).toEqual({ sent: true });
    await expect.poll(() => smtp.received.filter((m) => m.envelopeTo.includes("ada@example.com")).length).toBe(2);
    // Only the newest link works.
    await expect((await as(null)).accounts.verifyEmail({ token: first })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await followVerification("ada@example.com", ada.session)).toEqual({ email: "ada@example.com" });
    expect((await (await as(ada.session)).accounts.me()).emailVerified).toBe(true);
    // Used up, and nothing more to send.
    const used = (await linkTo("ada@example.com", /Verify/)).searchParams.get("token")!;
    await expect((await as(null)).accounts.verifyEmail({ token: used })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await (await as(ada.session)).accounts.resendVerification()).toEqual({ sent: false });
  });

  it("refuses an expired verification link", async () => {
    const bea = await account("bea@example.com");
    await t.db.accountToken.updateMany({ where: { userId: bea.userId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect(followVerification("bea@example.com", bea.session)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await (await as(bea.session)).accounts.me()).emailVerified).toBe(false);
  });
});

describe("invitations", () => {
  it("an owner invites an address with a role; that account, verified, accepts once from the e-mailed link", async () => {
    const owner = await account("owner@acme.example", { verified: true });
    const ownerCaller = await as(owner.session);
    const created = await ownerCaller.invitations.create({ email: "Bob@Example.com", role: "viewer" });
    expect(created).toMatchObject({ email: "bob@example.com", role: "viewer" });
    expect(new Date(created.expiresAt).getTime() - Date.now()).toBeGreaterThan(7 * 24 * 3600_000 - 60_000);
    expect((await ownerCaller.invitations.list()).map((i) => [i.email, i.role, i.invitedBy])).toEqual([["bob@example.com", "viewer", "owner@acme.example"]]);

    const { mail } = await smtp.mailTo("bob@example.com", /invited you/);
    expect(mail.subject).toBe("owner@acme.example invited you to Org of owner@acme.example on Referloop");
    const token = invitationToken(await linkTo("bob@example.com", /invited you/));
    // Only the hash is stored.
    expect(JSON.stringify(await t.db.invitation.findMany())).not.toContain(token);
    expect(await (await as(null)).invitations.get({ token })).toMatchObject({ organizationName: "Org of owner@acme.example", email: "bob@example.com", role: "viewer", state: "pending" });

    // Signed out: no acceptance. Signed in but unverified: refused until verified.
    await expect((await as(null)).invitations.accept({ token })).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    const bob = await account("bob@example.com");
    await expect((await as(bob.session)).invitations.accept({ token })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/Verify your e-mail/) });
    // Another verified account is refused, and the invitation stays usable.
    const carol = await account("carol@example.com", { verified: true });
    await expect((await as(carol.session)).invitations.accept({ token })).rejects.toMatchObject({ code: "FORBIDDEN", message: expect.stringMatching(/for bob@example.com/) });
    expect(await t.db.membership.count({ where: { organizationId: owner.organizationId } })).toBe(1);

    await followVerification("bob@example.com", bob.session);
    expect(await (await as(bob.session)).invitations.accept({ token })).toMatchObject({ organizationId: owner.organizationId, role: "viewer" });
    const inOrg = await as(bob.session, owner.organizationId);
    expect(await inOrg.accounts.me()).toMatchObject({ activeOrganizationId: owner.organizationId, role: "viewer" });
    expect((await ownerCaller.organizations.members()).map((m) => [m.email, m.role])).toEqual([
      ["owner@acme.example", "owner"],
      ["bob@example.com", "viewer"],
    ]);

    // Reused: refused, for the same account and any other.
    await expect((await as(bob.session)).invitations.accept({ token })).rejects.toMatchObject({ code: "CONFLICT", message: "This invitation was already used." });
    await expect((await as(carol.session)).invitations.accept({ token })).rejects.toMatchObject({ code: "CONFLICT" });
    expect((await (await as(null)).invitations.get({ token })).state).toBe("accepted");
    expect(await ownerCaller.invitations.list()).toEqual([]);
  });

  it("refuses an expired invitation and a revoked one; inviting again replaces the pending link", async () => {
    const owner = await account("owner2@acme.example");
    const ownerCaller = await as(owner.session);
    const dan = await account("dan@example.com", { verified: true });

    await ownerCaller.invitations.create({ email: "dan@example.com", role: "member" });
    const expired = invitationToken(await linkTo("dan@example.com", /invited you/));
    await t.db.invitation.updateMany({ where: { organizationId: owner.organizationId }, data: { expiresAt: new Date(Date.now() - 1000) } });
    await expect((await as(dan.session)).invitations.accept({ token: expired })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/expired/) });
    expect(await ownerCaller.invitations.list()).toEqual([]);

    await ownerCaller.invitations.create({ email: "dan@example.com", role: "member" });
    const first = invitationToken(await linkTo("dan@example.com", /invited you/));
    await ownerCaller.invitations.create({ email: "dan@example.com", role: "owner" });
    await expect.poll(() => smtp.received.filter((m) => m.envelopeTo.includes("dan@example.com") && /invited/.test(m.mail.subject ?? "")).length).toBe(3);
    const second = invitationToken(await linkTo("dan@example.com", /invited you/));
    expect(second).not.toBe(first);
    await expect((await as(dan.session)).invitations.accept({ token: first })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/withdrawn/) });
    const pending = await ownerCaller.invitations.list();
    expect(pending.map((i) => i.role)).toEqual(["owner"]);

    await ownerCaller.invitations.revoke({ id: pending[0]!.id });
    await expect((await as(dan.session)).invitations.accept({ token: second })).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/withdrawn/) });
    await expect(ownerCaller.invitations.revoke({ id: pending[0]!.id })).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect(await t.db.membership.count({ where: { organizationId: owner.organizationId } })).toBe(1);
    await expect((await as(null)).invitations.get({ token: "inv_" + "x".repeat(43) })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("an invited person signs up from the link without an organisation of their own: verified, joined, the link used up", async () => {
    const owner = await account("owner5@acme.example");
    await (await as(owner.session)).invitations.create({ email: "hal@example.com", role: "member" });
    const token = invitationToken(await linkTo("hal@example.com", /invited you/));
    const anonymous = await as(null);

    // Another address, a made-up token: nothing is created.
    const wrong = anonymous.accounts.signUp({ email: "ivy@example.com", password: TEST_PASSWORD, invitationToken: token });
    await expect(wrong).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(problemFromError((await wrong.catch((e: unknown) => e)) as TRPCError).errors).toEqual([
      { field: "email", rule: "invitation", message: "must be the invited address, hal@example.com" },
    ]);
    await expect(anonymous.accounts.signUp({ email: "hal@example.com", password: TEST_PASSWORD, invitationToken: "inv_" + "x".repeat(43) })).rejects.toMatchObject({ code: "NOT_FOUND" });
    // Without a token the organisation's name is required, as before.
    const unnamed = anonymous.accounts.signUp({ email: "hal@example.com", password: TEST_PASSWORD });
    expect(problemFromError((await unnamed.catch((e: unknown) => e)) as TRPCError).errors).toEqual([{ field: "organizationName", rule: "custom", message: "is required" }]);
    expect(await t.db.user.count({ where: { email: { in: ["hal@example.com", "ivy@example.com"] } } })).toBe(0);

    const created = await anonymous.accounts.signUp({ email: "Hal@Example.com", password: TEST_PASSWORD, name: "Hal", invitationToken: token });
    expect(created).toMatchObject({ organizationId: owner.organizationId, verificationSent: false });
    const hal = await signInForTest(t.db, "hal@example.com", TEST_PASSWORD);
    expect(await (await as(hal)).accounts.me()).toMatchObject({ emailVerified: true, activeOrganizationId: owner.organizationId, role: "member" });
    expect((await (await as(hal)).accounts.me()).organizations).toHaveLength(1);
    expect(await t.db.organization.count({ where: { memberships: { some: { userId: created.userId } } } })).toBe(1);
    expect((await anonymous.invitations.get({ token })).state).toBe("accepted");
    expect(await t.db.auditEntry.count({ where: { organizationId: owner.organizationId, action: "invitation.accept", actorId: created.userId } })).toBe(1);
    // No verification e-mail: the invitation's link proved the address.
    expect(smtp.received.filter((m) => m.envelopeTo.includes("hal@example.com") && /Verify/.test(m.mail.subject ?? ""))).toEqual([]);
    // The link is spent: a second sign-up with it (another address) creates nothing.
    await expect(anonymous.accounts.signUp({ email: "ivy@example.com", password: TEST_PASSWORD, invitationToken: token })).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("two acceptances at once make one membership", async () => {
    const owner = await account("owner3@acme.example");
    const eve = await account("eve@example.com", { verified: true });
    await (await as(owner.session)).invitations.create({ email: "eve@example.com", role: "member" });
    const token = invitationToken(await linkTo("eve@example.com", /invited you/));
    const results = await Promise.allSettled([1, 2, 3].map(async () => (await as(eve.session)).invitations.accept({ token })));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(await t.db.membership.count({ where: { organizationId: owner.organizationId, userId: eve.userId } })).toBe(1);
  });

  it("only owners invite; a member's address cannot be invited; a failed e-mail says so and keeps the invitation", async () => {
    const owner = await account("owner4@acme.example");
    const fay = await account("fay@example.com", { verified: true });
    await (await as(owner.session)).invitations.create({ email: "fay@example.com", role: "member" });
    await (await as(fay.session)).invitations.accept({ token: invitationToken(await linkTo("fay@example.com", /invited you/)) });
    const asMember = await as(fay.session, owner.organizationId);
    await expect(asMember.invitations.create({ email: "gus@example.com", role: "member" })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(asMember.invitations.list()).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect((await as(owner.session)).invitations.create({ email: "fay@example.com", role: "owner" })).rejects.toMatchObject({ code: "CONFLICT" });

    const brokenMail = await callerFor(t.db, owner.session, null, { config: smtp.config({ NEXTAUTH_URL: APP_URL }, "mailer:wrong") });
    await expect(brokenMail.invitations.create({ email: "gus@example.com", role: "member" })).rejects.toMatchObject({
      code: "SERVICE_UNAVAILABLE",
      message: expect.stringMatching(/saved but its e-mail could not be sent/),
    });
    expect((await (await as(owner.session)).invitations.list()).map((i) => i.email)).toEqual(["gus@example.com"]);
  });
});
