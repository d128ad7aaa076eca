import * as mailchecker from "mailchecker";

// mailchecker is CommonJS whose exports Node's ESM loader cannot name (`module.exports = { blacklist:
// function ... }`): under `node` the functions are on the namespace's default, under a bundler on the
// namespace itself.
const checker = (mailchecker as typeof mailchecker & { default?: typeof mailchecker }).default ?? mailchecker;
// The maintained list of disposable-mail domains (mailchecker, updated with each release), read once.
const disposable = checker.blacklist();

/**
 * Whether an e-mail address is at a disposable-mail domain, or a subdomain of one (as mailchecker
 * itself judges: `x@a.mailinator.com` counts). Only the domain is judged, not whether the address is
 * well formed: a malformed address is no reason to hold a reward.
 */
export function isDisposableEmail(email: string | null | undefined): boolean {
  if (!email) return false;
  const at = email.lastIndexOf("@");
  if (at < 0) return false;
  const labels = email.slice(at + 1).trim().toLowerCase().replace(/\.$/, "").split(".");
  for (let i = 0; i < labels.length - 1; i++) if (disposable.has(labels.slice(i).join("."))) return true;
  return false;
}
