/*
 * Webhook secrets come in two forms, both sent as `Authorization: Bearer <secret>` (the spec) and
 * both signing with HMAC-SHA256 (Standard Webhooks):
 * - the Standard Webhooks form the service generates, `whsec_` + base64 of random bytes: the HMAC key
 *   is the decoded bytes, so `new Webhook(secret)` of the official libraries verifies as it is;
 * - any other secret the client chooses: the HMAC key is its UTF-8 bytes.
 * No node: imports: the dashboard generates with the same function, the schema checks the same form.
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

/** A `whsec_` secret must be the Standard Webhooks form, so that receivers and the service agree on the key. */
export const isValidStandardForm = (secret: string) => !secret.startsWith(STANDARD_SECRET_PREFIX) || standardKey(secret) !== null;

export const STANDARD_KEY_BYTE_RANGE = STANDARD_KEY_BYTES;
