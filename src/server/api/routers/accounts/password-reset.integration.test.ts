import crypto from "node:crypto";
import { syncBuiltinESMExports } from "node:module";
import { describe, expect, it, vi } from "vitest";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
import type { TestDb } from "@/test/db";
import { callerFor, signInForTest } from "@/test/sessions";
import type { SmtpTestServer } from "@/test/smtp";
import { testConfig } from "@/test/config";
import { APP_URL, TEST_PASSWORD as PASSWORD, withDbAndMail } from "@/test/accounts";

let t: TestDb;
let smtp: SmtpTestServer;
withDbAndMail((env) => ({ t, smtp } = env));

const anonymous = () => callerFor(t.db, null, null, { config: smtp.config({ NEXTAUTH_URL: APP_URL }) });

async function resetLink(email: string): Promise<string> {
  const { links, mail } = await smtp.mailTo(email, /Reset your Referloop password/);
  expect(mail.text).toMatch(/The link works once, until \d+ \w+ \d{4} at \d{2}:\d{2} UTC/);
  const link = new URL(links[0]!);
  expect(`${link.origin}${link.pathname}`).toBe(`${APP_URL}/reset-password`);
  return link.searchParams.get("token")!;
}

describe("password reset by e-mail", () => {
  it("answers alike for unknown and known addresses, and e-mails only an account's own address", async () => {
    await (await anonymous()).accounts.signUp({ email: "known@example.com", password: PASSWORD, organizationName: "Known" });
    const unknown = await (await anonymous()).accounts.requestPasswordReset({ email: "unknown@example.com" });
    const known = await (await anonymous()).accounts.requestPasswordReset({ email: "KNOWN@example.com" });
    expect(unknown).toEqual(known);
    await resetLink("known@example.com");
    // The unknown address's request returned before the known one was made, and sent nothing.
    expect(smtp.received.some((m) => m.envelopeTo.includes("unknown@example.com"))).toBe(false);
  });

  it("sets a new password from the link once, ends every session, and verifies the address", async () => {
    const { userId } = await (await anonymous()).accounts.signUp({ email: "reset@example.com", password: PASSWORD, organizationName: "Reset" });
    const laptop = await signInForTest(t.db, "reset@example.com", PASSWORD);
    const phone = await signInForTest(t.db, "reset@example.com", PASSWORD);
    await (await anonymous()).accounts.requestPasswordReset({ email: "reset@example.com" });
    const token = await resetLink("reset@example.com");
    expect(JSON.stringify(await t.db.accountToken.findMany())).not.toContain(token);

    // The policy applies, the e-mail rule included; a refused password leaves the link usable.
    await expect((await anonymous()).accounts.resetPassword({ token, newPassword: "password1234" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect((await anonymous()).accounts.resetPassword({ token, newPassword: "reset@example.com" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect((await (await callerFor(t.db, laptop)).accounts.me()).userId).toBe(userId);

    expect(await (await anonymous()).accounts.resetPassword({ token, newPassword: "a fresh start at last" })).toEqual({ email: "reset@example.com" });
    for (const session of [laptop, phone]) await expect((await callerFor(t.db, session)).accounts.me()).rejects.toMatchObject({ code: "UNAUTHORIZED" });
    expect(await verifyCredentials(t.db, "reset@example.com", PASSWORD)).toBeNull();
    expect(await verifyCredentials(t.db, "reset@example.com", "a fresh start at last")).toMatchObject({ id: userId, emailVerifiedAt: expect.any(Date) });

    // Single use.
    await expect((await anonymous()).accounts.resetPassword({ token, newPassword: "yet another secret" })).rejects.toMatchObject({ code: "BAD_REQUEST", message: expect.stringMatching(/invalid, was already used or has expired/) });
  });

  it("checks the token before hashing the new password: a bogus token costs no scrypt", async () => {
    // Node's own scrypt, watched (syncBuiltinESMExports carries the spy to `import { scrypt } from "node:crypto"`).
    const scrypt = vi.spyOn(crypto, "scrypt");
    syncBuiltinESMExports();
    try {
      for (const token of ["x".repeat(43), "y".repeat(43)]) {
        await expect((await anonymous()).accounts.resetPassword({ token, newPassword: "a guess that is long enough" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
      }
      expect(scrypt).not.toHaveBeenCalled();
      // A real link does hash (once).
      await (await anonymous()).accounts.signUp({ email: "hash@example.com", password: PASSWORD, organizationName: "Hash" });
      await (await anonymous()).accounts.requestPasswordReset({ email: "hash@example.com" });
      const token = await resetLink("hash@example.com");
      scrypt.mockClear();
      await (await anonymous()).accounts.resetPassword({ token, newPassword: "the real new password" });
      expect(scrypt).toHaveBeenCalledTimes(1);
    } finally {
      scrypt.mockRestore();
      syncBuiltinESMExports();
    }
  });

  it("refuses a link after its hour; a newer request replaces the older link", async () => {
    await (await anonymous()).accounts.signUp({ email: "late@example.com", password: PASSWORD, organizationName: "Late" });
    await (await anonymous()).accounts.requestPasswordReset({ email: "late@example.com" });
    const first = await resetLink("late@example.com");
    const row = await t.db.accountToken.findFirstOrThrow({ where: { purpose: "resetPassword", email: "late@example.com" } });
    expect(row.expiresAt.getTime() - row.createdAt.getTime()).toBe(60 * 60 * 1000);
    await t.db.accountToken.update({ where: { id: row.id }, data: { expiresAt: new Date(Date.now() - 1) } });
    await expect((await anonymous()).accounts.resetPassword({ token: first, newPassword: "too late for this" })).rejects.toMatchObject({ code: "BAD_REQUEST" });

    await (await anonymous()).accounts.requestPasswordReset({ email: "late@example.com" });
    await expect.poll(() => smtp.received.filter((m) => m.envelopeTo.includes("late@example.com") && /Reset/.test(m.mail.subject ?? "")).length).toBe(2);
    const second = await resetLink("late@example.com");
    await (await anonymous()).accounts.requestPasswordReset({ email: "late@example.com" });
    await expect.poll(() => smtp.received.filter((m) => m.envelopeTo.includes("late@example.com") && /Reset/.test(m.mail.subject ?? "")).length).toBe(3);
    await expect((await anonymous()).accounts.resetPassword({ token: second, newPassword: "replaced already" })).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await (await anonymous()).accounts.resetPassword({ token: await resetLink("late@example.com"), newPassword: "third time lucky" })).toEqual({ email: "late@example.com" });
  });

  it("by default, without NEXTAUTH_URL, refuses to build links from the request's Host", async () => {
    const production = await callerFor(t.db, null, null, { config: testConfig({ REFERLOOP_ALLOW_HOST_LINKS: "" }) }, new Headers({ host: "attacker.example" }));
    await expect(production.accounts.requestPasswordReset({ email: "known@example.com" })).rejects.toMatchObject({ code: "SERVICE_UNAVAILABLE", message: expect.stringMatching(/NEXTAUTH_URL/) });
  });
});
