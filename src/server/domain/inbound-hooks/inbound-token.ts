import { INBOUND_TOKEN_PREFIX } from "@/lib/schemas/inbound-hooks";
import { hashToken, newToken } from "@/server/domain/tokens";
import { configuredKeys, encryptSecret, type SecretKeys } from "@/server/domain/webhooks/webhook-secret";

/** A new hook token: `ih_` + 256 random bits. */
export const newInboundToken = () => newToken(INBOUND_TOKEN_PREFIX);

/**
 * How the token is stored. The hash finds the project when a provider calls (one unique-index read, no
 * decryption per request, and a dump of the table yields no working URL); the ciphertext lets the
 * settings show the token and its URLs again whenever someone sets up a provider, which a hash alone
 * cannot. Encrypted like project and webhook secrets (same keys, rotation and re-encryption).
 */
export function inboundTokenColumns(token: string, keys: SecretKeys = configuredKeys()) {
  return { tokenHash: hashToken(token), tokenEncrypted: encryptSecret(token, keys) };
}
