import type { AddressInfo } from "node:net";
import { simpleParser, type ParsedMail } from "mailparser";
import { SMTPServer } from "smtp-server";
import type { Config } from "@/server/config";
import { linksIn } from "@/server/mail/mailbox";
import { testConfig } from "./config";
import { waitUntil } from "./wait";

export type ReceivedMail = { envelopeTo: string[]; mail: ParsedMail };

const USER = "mailer";
const PASSWORD = "s3cret pass";

/**
 * A real SMTP server in the test process: it requires a login, keeps every message parsed, and gives
 * the configuration of a service that sends through it.
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true, // loopback only; no TLS certificate in a test
    disabledCommands: ["STARTTLS"],
    logger: false,
    onAuth: (auth, _session, callback) =>
      auth.username === USER && auth.password === PASSWORD ? callback(null, { user: USER }) : callback(new Error("Invalid login")),
    onData: (stream, session, callback) => {
      simpleParser(stream).then(
        (mail) => {
          received.push({ envelopeTo: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    received,
    /** A service sending through this server (credentials overridable, to test a refused login). */
    config: (env: Record<string, string> = {}, credentials = `${USER}:${encodeURIComponent(PASSWORD)}`): Config =>
      testConfig({ SMTP_URL: `smtp://${credentials}@127.0.0.1:${port}`, MAIL_FROM: "Referloop Test <no-reply@referloop.test>", ...env }),
    /** The newest message to `to` once it has arrived, and the links of its text part. */
    async mailTo(to: string, subject?: RegExp): Promise<{ mail: ParsedMail; links: string[] }> {
      const find = () => received.filter((r) => r.envelopeTo.includes(to) && (!subject || subject.test(r.mail.subject ?? ""))).at(-1);
      const { mail } = (await waitUntil(async () => find(), Boolean, { what: `an e-mail to ${to}` }))!;
      return { mail, links: linksIn(mail.text ?? "") };
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
export type SmtpTestServer = Awaited<ReturnType<typeof startSmtpServer>>;
