import { hashToken, newToken } from "@/server/domain/tokens";
import { configuredKeys, encryptSecret, type SecretKeys } from "@/server/domain/webhooks/webhook-secret";

export const SECRET_PREFIX = "sk_";
export const PUBLISHABLE_PREFIX = "pk_";

/** A new `sk_` project secret: shown once, to the caller that created or rotated it. */
export const newProjectSecret = () => newToken(SECRET_PREFIX);

/** A new `pk_` publishable key. Not a secret: it identifies the project in web pages and app binaries. */
export const newPublishableKey = () => newToken(PUBLISHABLE_PREFIX);

/**
 * How a secret is stored. The hash finds the project by the secret (the credential check); the
 * ciphertext lets identity verification recompute `HMAC-SHA256(userId)` keyed with the secret, which
 * needs the key itself: any value that can verify such an HMAC can also forge one, so a "derived"
 * verification key would protect nothing more than the encrypted secret does. It is encrypted like
 * webhook secrets (same keys, same rotation, same admin re-encryption).
 */
export function projectSecretColumns(secret: string, keys: SecretKeys = configuredKeys()) {
  return { secretHash: hashToken(secret), secretPrefix: secret.slice(0, 7), secretEncrypted: encryptSecret(secret, keys) };
}
