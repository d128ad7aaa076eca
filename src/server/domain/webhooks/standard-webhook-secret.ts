/*
 * Webhook secrets come in two forms, both sent as `Authorization: Bearer <secret>` (the spec) and
 * both signing with HMAC-SHA256 (Standard Webhooks):
 * - the Standard Webhooks form the service generates, `whsec_` + base64 of random bytes: the HMAC key
 *   is the decoded bytes, so `new Webhook(secret)` of the official libraries verifies as it is;
 * - any other secret the client chooses: the HMAC key is its UTF-8 bytes.
 * No node: imports, so the dashboard generates with the same function.
 */

export const STANDARD_SECRET_PREFIX = "whsec_";
/** 24 bytes (192 bits, the spec's minimum) encode to 32 base64 characters without padding. */
export const GENERATED_SECRET_BYTES = 24;
/** Standard Webhooks keys are 24 to 64 bytes. */
const STANDARD_KEY_BYTES = { min: 24, max: 64 };
export const MIN_WEBHOOK_SECRET_LENGTH = 16;
export const MAX_WEBHOOK_SECRET_LENGTH = 512;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function toBase64(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes));
}

/** A fresh secret in the Standard Webhooks form. */
export function generateWebhookSecret(): string {
  return STANDARD_SECRET_PREFIX + toBase64(crypto.getRandomValues(new Uint8Array(GENERATED_SECRET_BYTES)));
}

/** The key bytes of a Standard Webhooks secret, or null when the secret is not in that form. */
function standardKey(secret: string): Uint8Array | null {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX)) return null;
  const encoded = secret.slice(STANDARD_SECRET_PREFIX.length);
  if (!BASE64.test(encoded)) return null;
  const bytes = Uint8Array.from(atob(encoded), (c) => c.charCodeAt(0));
  return bytes.length >= STANDARD_KEY_BYTES.min && bytes.length <= STANDARD_KEY_BYTES.max ? bytes : null;
}

/**
 * The HMAC key of a secret. A `whsec_` value that is not valid Standard Webhooks base64 (no longer
 * accepted at creation, but stored by earlier versions) keeps signing with its UTF-8 bytes.
 */
export function webhookSigningKey(secret: string): Uint8Array {
  return standardKey(secret) ?? new TextEncoder().encode(secret);
}

export type SecretViolation = { rule: string; message: string };

/**
 * The rules of a client-chosen secret: a valid header value (visible ASCII, no spaces, which proxies
 * may trim or fold), long enough to resist guessing, and a `whsec_` value must be the Standard
 * Webhooks form so that receivers and the service agree on the key.
 */
export function checkWebhookSecret(secret: string): SecretViolation | null {
  if (secret.length < MIN_WEBHOOK_SECRET_LENGTH) {
    return { rule: "min_length", message: `secret must be at least ${MIN_WEBHOOK_SECRET_LENGTH} characters; omit it to get a generated one.` };
  }
  if (secret.length > MAX_WEBHOOK_SECRET_LENGTH) {
    return { rule: "max_length", message: `secret must be at most ${MAX_WEBHOOK_SECRET_LENGTH} characters.` };
  }
  if (!/^[\x21-\x7e]+$/.test(secret)) {
    return { rule: "charset", message: "secret may contain visible ASCII characters only (no spaces)." };
  }
  if (secret.startsWith(STANDARD_SECRET_PREFIX) && !standardKey(secret)) {
    return {
      rule: "standard_webhooks",
      message: `a secret starting with ${STANDARD_SECRET_PREFIX} must be followed by the base64 of ${STANDARD_KEY_BYTES.min} to ${STANDARD_KEY_BYTES.max} bytes.`,
    };
  }
  return null;
}
