import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { instanceSecret } from "@/server/instance-secret";

const FORMAT = "v1";
const HKDF_INFO = "referloop webhook secret v1";

let cachedKey: { source: string; key: Buffer } | undefined;

/** 32 bytes derived from the instance encryption key; HKDF so the raw key can be any length or format. */
function encryptionKey(source: string): Buffer {
  if (cachedKey?.source !== source) {
    cachedKey = { source, key: Buffer.from(hkdfSync("sha256", source, Buffer.alloc(0), HKDF_INFO, 32)) };
  }
  return cachedKey.key;
}

/** AES-256-GCM with a random 96-bit nonce: `v1.<nonce>.<tag>.<ciphertext>`, each base64url. */
export function encryptSecret(plain: string, keySource = instanceSecret("encryptionKey")): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(keySource), nonce);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [FORMAT, nonce, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/** The secret, or null when the value was not produced with this key (the key was changed) or was altered. */
export function decryptSecret(stored: string, keySource = instanceSecret("encryptionKey")): string | null {
  const [format, nonce, tag, ciphertext] = stored.split(".");
  if (format !== FORMAT || nonce === undefined || tag === undefined || ciphertext === undefined) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", encryptionKey(keySource), Buffer.from(nonce, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
  } catch {
    return null;
  }
}

/**
 * A masked value to recognise the secret by: at most its last 4 characters, and never more than a
 * quarter of it, so a short secret is not half given away.
 */
export function secretHint(plain: string): string {
  const shown = Math.min(4, Math.floor(plain.length / 4));
  return "****" + (shown > 0 ? plain.slice(-shown) : "");
}
