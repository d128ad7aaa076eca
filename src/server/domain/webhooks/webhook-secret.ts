import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "@/server/config";
import { encryptionKey } from "@/server/instance-secret";

const FORMAT = "v1";
const HKDF_INFO = "referloop webhook secret v1";

const derived = new Map<string, Buffer>();

/** 32 bytes derived from a configured key; HKDF so the raw key can be any length or format. */
function derive(source: string): Buffer {
  let key = derived.get(source);
  if (!key) derived.set(source, (key = Buffer.from(hkdfSync("sha256", source, Buffer.alloc(0), HKDF_INFO, 32))));
  return key;
}

/**
 * The current key encrypts; during a rotation REFERLOOP_ENCRYPTION_KEY_PREVIOUS still decrypts what
 * it encrypted, until `npm run -s admin -- reencrypt-secrets` has rewritten every row.
 */
function decryptionKeys(): { key: Buffer; current: boolean }[] {
  const previous = config.previousEncryptionKey;
  return [{ key: derive(encryptionKey()), current: true }, ...(previous ? [{ key: derive(previous), current: false }] : [])];
}

/** AES-256-GCM with a random 96-bit nonce: `v1.<nonce>.<tag>.<ciphertext>`, each base64url. */
export function encryptSecret(plain: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derive(encryptionKey()), nonce);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [FORMAT, nonce, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/**
 * The plain secret, and whether the current key encrypted it. GCM's tag tells a wrong key apart, so
 * trying each key is exact. Throws when no configured key produced the value.
 */
export function openSecret(stored: string): { plain: string; current: boolean } {
  const [format, nonce, tag, ciphertext] = stored.split(".");
  if (format !== FORMAT || nonce === undefined || tag === undefined || ciphertext === undefined) {
    throw new Error("Unknown webhook secret format.");
  }
  for (const { key, current } of decryptionKeys()) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(nonce, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return { plain: Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8"), current };
    } catch {
      // Not this key: try the next one.
    }
  }
  throw new Error("The webhook secret was encrypted with another key: set REFERLOOP_ENCRYPTION_KEY (or _PREVIOUS) to it.");
}

/** Throws when the value was not produced with a configured key (e.g. the key was changed). */
export function decryptSecret(stored: string): string {
  return openSecret(stored).plain;
}

/**
 * A masked value to recognise the secret by: at most its last 4 characters, and never more than a
 * quarter of it, so a short secret is not half given away.
 */
export function secretHint(plain: string): string {
  const shown = Math.min(4, Math.floor(plain.length / 4));
  return "****" + (shown > 0 ? plain.slice(-shown) : "");
}
