import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getConfig, type Config } from "@/server/config";
import type { MailContent } from "./templates";

export type OutgoingMail = MailContent & { to: string };

/** What the embedded default writes for each message, one JSON file each (read by /dev/mail). */
export type StoredMail = OutgoingMail & { messageId: string; from: string; date: string };

/** Where e-mail goes: SMTP_URL, MAIL_FROM, and the data folder of the embedded default. */
export type MailConfig = Pick<Config, "smtpUrl" | "mailFrom" | "dataDir">;

export const mailFolder = (config: MailConfig = getConfig()) => path.join(config.dataDir, "mail");

let smtp: { url: string; transporter: Transporter } | undefined;

/** Messages this process has written: orders those written within one millisecond. */
let written = 0;

/** One pooled SMTP transport per SMTP_URL; short timeouts so a dead server fails the send, not the process. */
function smtpTransport(url: string): Transporter {
  if (smtp?.url !== url) {
    smtp = { url, transporter: nodemailer.createTransport(url, { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 30_000 }) };
  }
  return smtp.transporter;
}

// nodemailer's JSON transport builds the message as SMTP would (addresses checked, Message-ID), without sending it.
const jsonTransport = nodemailer.createTransport({ jsonTransport: true });

/**
 * Sends through SMTP when SMTP_URL is set; otherwise (embedded default) writes the message to
 * `<data folder>/mail/` for the development mailbox page. Returns the Message-ID.
 */
export async function sendMail(mail: OutgoingMail, config: MailConfig = getConfig()): Promise<string> {
  const message = { from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
  if (config.smtpUrl) return (await smtpTransport(config.smtpUrl).sendMail(message)).messageId;
  const info = await jsonTransport.sendMail(message);
  const date = new Date();
  const stored: StoredMail = { ...message, messageId: info.messageId, date: date.toISOString() };
  const folder = mailFolder(config);
  mkdirSync(folder, { recursive: true });
  // Sortable names, newest last, also within one millisecond; 0600: the links in them are credentials.
  const sequence = String(++written).padStart(9, "0");
  const name = `${date.toISOString().replace(/[:.]/g, "-")}-${sequence}-${randomBytes(4).toString("hex")}.json`;
  writeFileSync(path.join(folder, name), JSON.stringify(stored, null, 2) + "\n", { mode: 0o600 });
  return info.messageId;
}
