import { hkdfSync } from "node:crypto";
import type { Config } from "@/server/config";
import { instanceSecret } from "@/server/instance-secret";

const INFO = "referloop clipboard token v1";
const derived = new Map<string, Buffer>();

function derive(source: string): Buffer {
  let key = derived.get(source);
  if (!key) derived.set(source, (key = Buffer.from(hkdfSync("sha256", source, Buffer.alloc(0), INFO, 32))));
  return key;
}

/**
 * The keys that sign the landing page's clipboard tokens (clipboard-token.ts), derived from the
 * instance's encryption key (REFERLOOP_ENCRYPTION_KEY, or the generated one) with HKDF under their
 * own label, so no further secret needs configuring and every instance signs alike. During a key
 * rotation the previous key's tokens still read; tokens live one match window (24 hours at most).
 */
export function clipboardSecrets(config: Config): { current: Buffer; all: Buffer[] } {
  const current = derive(instanceSecret("encryptionKey", config));
  return { current, all: config.previousEncryptionKey ? [current, derive(config.previousEncryptionKey)] : [current] };
}
