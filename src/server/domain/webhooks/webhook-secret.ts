import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { getConfig, type Config } from "@/server/config";
import { instanceSecret } from "@/server/instance-secret";

const FORMAT = "v1";
const HKDF_INFO = "referloop webhook secret v1";

/**
 * The keys of webhook secrets at rest: the current one encrypts and decrypts; during a rotation the
 * previous one (REFERLOOP_ENCRYPTION_KEY_PREVIOUS) still decrypts what it encrypted, until
 * `npm run -s admin -- reencrypt-secrets` has rewritten every row.
 */
export type SecretKeys = { current: string; previous?: string };

export const configuredKeys = (config: Config = getConfig()): SecretKeys => ({
  current: instanceSecret("encryptionKey", config),
  previous: config.previousEncryptionKey,
});

const derived = new Map<string, Buffer>();

/** 32 bytes derived from a configured key; HKDF so the raw key can be any length or format. */
function derive(source: string): Buffer {
  let key = derived.get(source);
  if (!key) derived.set(source, (key = Buffer.from(hkdfSync("sha256", source, Buffer.alloc(0), HKDF_INFO, 32))));
  return key;
}

/** AES-256-GCM with a random 96-bit nonce: `v1.<nonce>.<tag>.<ciphertext>`, each base64url. */
export function encryptSecret(plain: string, keys: SecretKeys = configuredKeys()): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", derive(keys.current), nonce);
  const ciphertext = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [FORMAT, nonce, cipher.getAuthTag(), ciphertext].map((p) => (typeof p === "string" ? p : p.toString("base64url"))).join(".");
}

/**
 * The plain secret and whether the current key encrypted it, or null when no configured key produced
 * the value (the key was changed) or it was altered. GCM's tag tells a wrong key apart, so trying
 * each key is exact.
 */
export function openSecret(stored: string, keys: SecretKeys = configuredKeys()): { plain: string; current: boolean } | null {
  const cacheKey = `${keys.current}\n${keys.previous ?? ""}\n${stored}`;
  const cached = opened.get(cacheKey);
  if (cached) return cached;
  const result = openWithKeys(stored, keys);
  if (result) {
    if (opened.size >= OPENED_MAX) opened.delete(opened.keys().next().value!);
    opened.set(cacheKey, result);
  }
  return result;
}

/**
 * Secrets already opened, by stored value and keys: every delivery attempt opens its webhook's
 * secret, and a fresh AES-GCM decipher each time was about 5% of a reward's app CPU. Holding them
 * exposes nothing new: the process holds the key that opens them. A stored value is never changed in
 * place (a new secret is a new nonce), so an entry cannot go stale; the oldest entry goes first.
 */
const opened = new Map<string, { plain: string; current: boolean }>();
const OPENED_MAX = 1_000;

function openWithKeys(stored: string, keys: SecretKeys): { plain: string; current: boolean } | null {
  const [format, nonce, tag, ciphertext] = stored.split(".");
  if (format !== FORMAT || nonce === undefined || tag === undefined || ciphertext === undefined) return null;
  const candidates = [{ key: keys.current, current: true }, ...(keys.previous ? [{ key: keys.previous, current: false }] : [])];
  for (const { key, current } of candidates) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", derive(key), Buffer.from(nonce, "base64url"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return { plain: Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8"), current };
    } catch {
      // Not this key: try the next one.
    }
  }
  return null;
}

/** The plain secret, or null when no configured key can read it. */
export const decryptSecret = (stored: string, keys: SecretKeys = configuredKeys()): string | null => openSecret(stored, keys)?.plain ?? null;

/**
 * A masked value to recognise the secret by: at most its last 4 characters, and never more than a
 * quarter of it, so a short secret is not half given away.
 */
export function secretHint(plain: string): string {
  const shown = Math.min(4, Math.floor(plain.length / 4));
  return "****" + (shown > 0 ? plain.slice(-shown) : "");
}
