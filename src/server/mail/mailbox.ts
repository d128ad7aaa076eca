import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import type { Config } from "@/server/config";
import { fromLoopback } from "@/server/http/peer-address";
import { mailFolder, type MailConfig, type StoredMail } from "./transport";

export type MailboxEntry = StoredMail & { id: string };

/**
 * Whether /dev/mail shows the mailbox to this request. It holds password-reset and invitation links,
 * so only with REFERLOOP_DEV_MAILBOX (set by `npm run dev`), and only to a browser on this machine
 * (the connection's address, with trusted proxies' forwarding applied): to anyone else it does not exist.
 */
export function mailboxVisible(config: Pick<Config, "devMailbox" | "trustedProxies">, headers: Headers): boolean {
  return config.devMailbox && fromLoopback(headers, config.trustedProxies);
}

/** The messages the embedded default wrote, newest first (the development mailbox). */
export function listMailbox(limit = 100, config?: MailConfig): MailboxEntry[] {
  const folder = mailFolder(config);
  let names: string[];
  try {
    names = readdirSync(folder).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  return names
    .sort()
    .reverse()
    .slice(0, limit)
    .map((name) => ({ id: name.slice(0, -".json".length), ...(JSON.parse(readFileSync(path.join(folder, name), "utf8")) as StoredMail) }));
}

/** The http(s) links of a plain-text body, in order. */
export function linksIn(text: string): string[] {
  return text.match(/https?:\/\/[^\s<>"]+/g) ?? [];
}
