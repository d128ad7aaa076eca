import { lookup as dnsLookup, type LookupAddress, type LookupAllOptions, type LookupOptions } from "node:dns";
import { isIP } from "node:net";
import type { UrlRules } from "@/server/config";
import { invalidField } from "@/server/domain/errors";
import { isMetadataAddress, isNonPublicAddress } from "./private-address";

export const MAX_URL_LENGTH = 2048;

/**
 * The message does not name the address the host resolved to: that would tell a caller what our DNS
 * sees inside the network (a probe for internal names).
 */
export const NON_PUBLIC_TARGET_MESSAGE =
  "The webhook URL's address is not public: loopback, private, link-local and metadata addresses are refused.";

/** Where private targets are allowed: what stays refused. */
export const METADATA_TARGET_MESSAGE =
  "The webhook URL's address is link-local or a cloud metadata service: refused whatever the settings.";

export class NonPublicTargetError extends Error {
  constructor(message = NON_PUBLIC_TARGET_MESSAGE) {
    super(message);
    this.name = "NonPublicTargetError";
  }
}

/** The addresses a webhook may not reach under these rules, and what the refusal says. */
function refusedAddresses(rules: Pick<UrlRules, "publicOnly">): { refused: (address: string) => boolean; message: string } {
  return rules.publicOnly ? { refused: isNonPublicAddress, message: NON_PUBLIC_TARGET_MESSAGE } : { refused: isMetadataAddress, message: METADATA_TARGET_MESSAGE };
}

export type UrlViolation = { rule: string; message: string };

/** URL.hostname keeps IPv6 brackets; the address checks want the bare literal. */
const bareHost = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * The rules that need no DNS, shared by creation and sending (the settings can differ between the
 * two): absolute http(s) without credentials (fetchers refuse them, and they would leak into logs),
 * https unless http is allowed, and no literal non-public address (when private targets are allowed,
 * no literal link-local or metadata address).
 */
export function checkWebhookUrl(raw: string, rules: UrlRules): { url: URL } | { violation: UrlViolation } {
  if (raw.length > MAX_URL_LENGTH) return { violation: { rule: "max_length", message: `url must be at most ${MAX_URL_LENGTH} characters.` } };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { violation: { rule: "url", message: "url must be an absolute http(s) URL." } };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return { violation: { rule: "url", message: "url must be an absolute http(s) URL." } };
  }
  if (url.username || url.password) {
    return { violation: { rule: "no_credentials", message: "url must not contain a user name or password." } };
  }
  if (rules.httpsOnly && url.protocol !== "https:") {
    return { violation: { rule: "https", message: "url must use https." } };
  }
  const host = bareHost(url);
  const { refused, message } = refusedAddresses(rules);
  if (isIP(host) && refused(host)) return { violation: { rule: "public_address", message } };
  return { url };
}

/**
 * Validates a URL given at creation or update and returns its normalised form (what is stored is
 * exactly what was checked). When private targets are refused, a host name must resolve, and only
 * to public addresses; sending checks again (guardedLookup) because DNS can change. Where they are
 * allowed (tests, a developer's machine), names are not resolved here: the send-time check still
 * refuses link-local and metadata addresses.
 */
export async function validateWebhookUrl(raw: string, rules: UrlRules): Promise<string> {
  const checked = checkWebhookUrl(raw.trim(), rules);
  if ("violation" in checked) throw invalidField("url", checked.violation.rule, checked.violation.message);
  const host = bareHost(checked.url);
  if (rules.publicOnly && !isIP(host)) {
    const refusal = await new Promise<NodeJS.ErrnoException | null>((resolve) => guardedLookup(rules)(host, { all: true }, resolve));
    if (refusal instanceof NonPublicTargetError) throw invalidField("url", "public_address", refusal.message);
    if (refusal) throw invalidField("url", "resolvable", `The host ${host} could not be resolved.`);
  }
  return checked.url.href;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

export type GuardedLookup = (hostname: string, options: LookupOptions | LookupAllOptions, callback: LookupCallback) => void;

/**
 * A socket `lookup` that refuses the addresses the rules refuse (non-public ones, or where private
 * targets are allowed link-local and metadata ones): the address checked is the address connected
 * to, so a DNS answer that changes between a check and the connection (rebinding) cannot slip through.
 */
export const guardedLookup = (rules: Pick<UrlRules, "publicOnly">): GuardedLookup => (rules.publicOnly ? lookups.publicOnly : lookups.notMetadata);

function lookupRefusing({ refused, message }: ReturnType<typeof refusedAddresses>): GuardedLookup {
  return (hostname, options, callback) =>
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.some((a) => refused(a.address))) return callback(new NonPublicTargetError(message), []);
      if (options.all) return callback(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`No address for ${hostname}`), { code: "ENOTFOUND" }), []);
      callback(null, first.address, first.family);
    });
}

const lookups = {
  publicOnly: lookupRefusing(refusedAddresses({ publicOnly: true })),
  notMetadata: lookupRefusing(refusedAddresses({ publicOnly: false })),
};
