import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { testConfig } from "@/test/config";
import { startSmtpServer, type SmtpTestServer } from "@/test/smtp";
import { linksIn, listMailbox } from "./mailbox";
import { sendInvitationEmail, sendPasswordResetEmail, sendVerificationEmail } from "./send";

let smtp: SmtpTestServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
afterEach(() => {
  smtp.received.length = 0;
});

/** The configuration of a service sending through the test's SMTP server. */
const smtpConfig = (credentials?: string) => smtp.config({}, credentials);

/** The links of the HTML part (href values), as a mail client would follow them. */
const htmlLinks = (html: string) => [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, "&"));

describe("e-mail over SMTP", () => {
  it("sends the verification e-mail, whose link can be read from both parts", async () => {
    const link = "https://app.example.com/verify-email?token=abc123&email=ada%40example.com";
    await sendVerificationEmail({ to: "ada@example.com", link }, smtpConfig());
    expect(smtp.received).toHaveLength(1);
    const { envelopeTo, mail } = smtp.received[0]!;
    expect(envelopeTo).toEqual(["ada@example.com"]);
    expect(mail.from?.value).toEqual([{ address: "no-reply@referloop.test", name: "Referloop Test" }]);
    expect(mail.subject).toBe("Verify your e-mail address");
    expect(linksIn(mail.text ?? "")).toEqual([link]);
    expect(new Set(htmlLinks(String(mail.html)))).toEqual(new Set([link]));
  });

  it("sends the invitation with inviter, organisation, role, link and expiry, escaping the HTML", async () => {
    const link = "https://app.example.com/invitations/inv_42";
    const organization = `Acme <script>alert("x")</script> & Co`;
    await sendInvitationEmail({ to: "bob@example.com", inviter: "Ada Lovelace", organization, role: "member", link, expiresAt: new Date("2026-11-29T18:30:00Z") }, smtpConfig());
    const { mail } = smtp.received[0]!;
    expect(mail.subject).toBe(`Ada Lovelace invited you to ${organization} on Referloop`);
    const text = mail.text ?? "";
    expect(text).toContain(`Ada Lovelace invited you to join the organisation ${organization} on Referloop as member.`);
    expect(text).toContain("until 29 November 2026 at 18:30 UTC");
    expect(linksIn(text)).toEqual([link]);
    const html = String(mail.html);
    expect(html).not.toContain("<script>");
    expect(html).toContain("Acme &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co");
    expect(new Set(htmlLinks(html))).toEqual(new Set([link]));
  });

  it("sends the password reset with its link and expiry", async () => {
    const link = "https://app.example.com/reset-password?token=r3set";
    await sendPasswordResetEmail({ to: "carol@example.com", link, expiresAt: new Date("2026-11-22T19:05:00Z") }, smtpConfig());
    const { mail } = smtp.received[0]!;
    expect(mail.subject).toBe("Reset your Referloop password");
    expect(mail.text).toContain("until 22 November 2026 at 19:05 UTC");
    expect(linksIn(mail.text ?? "")).toEqual([link]);
  });

  it("fails the send when the server refuses the login, and refuses a non-http link before sending", async () => {
    await expect(sendVerificationEmail({ to: "ada@example.com", link: "https://app.example.com/v" }, smtpConfig("mailer:wrong"))).rejects.toThrow(/Invalid login/);
    await expect(sendVerificationEmail({ to: "ada@example.com", link: "javascript:alert(1)" }, smtpConfig())).rejects.toThrow(/http/);
    expect(smtp.received).toHaveLength(0);
  });
});

describe("e-mail on the embedded default (no SMTP_URL)", () => {
  let dataDir: string;
  beforeAll(() => {
    dataDir = mkdtempSync(path.join(tmpdir(), "referloop-mail-"));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("writes each message to <data folder>/mail, readable by its owner only, listed newest first", async () => {
    const config = testConfig({ REFERLOOP_DATA_DIR: dataDir });
    await sendVerificationEmail({ to: "first@example.com", link: "http://localhost:3000/verify?token=one" }, config);
    await sendPasswordResetEmail({ to: "second@example.com", link: "http://localhost:3000/reset?token=two", expiresAt: new Date() }, config);
    const files = readdirSync(path.join(dataDir, "mail"));
    expect(files).toHaveLength(2);
    for (const file of files) expect(statSync(path.join(dataDir, "mail", file)).mode & 0o777).toBe(0o600);
    const mailbox = listMailbox(100, config);
    expect(mailbox.map((m) => [m.to, m.subject])).toEqual([
      ["second@example.com", "Reset your Referloop password"],
      ["first@example.com", "Verify your e-mail address"],
    ]);
    expect(linksIn(mailbox[1]!.text)).toEqual(["http://localhost:3000/verify?token=one"]);
    expect(mailbox[0]!.messageId).toMatch(/^<.+@.+>$/);
    expect(smtp.received).toHaveLength(0);
  });

  it("lists messages written within one millisecond newest first too", async () => {
    const config = testConfig({ REFERLOOP_DATA_DIR: mkdtempSync(path.join(dataDir, "same-ms-")) });
    vi.useFakeTimers({ toFake: ["Date"], now: new Date("2026-11-26T15:30:04.242Z") });
    try {
      for (let i = 0; i < 8; i++) await sendVerificationEmail({ to: `n${i}@example.com`, link: `http://localhost:3000/verify?token=${i}` }, config);
    } finally {
      vi.useRealTimers();
    }
    expect(listMailbox(100, config).map((m) => m.to)).toEqual([7, 6, 5, 4, 3, 2, 1, 0].map((i) => `n${i}@example.com`));
  });
});
