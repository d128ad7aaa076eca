import { createHash, randomBytes, randomInt } from "node:crypto";

/** SHA-256 hex: enough for tokens that carry 256 bits of randomness (API keys, project secrets). */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A credential: prefix + 43 base64url characters (256 bits). */
export const newToken = (prefix: string) => prefix + randomBytes(32).toString("base64url");

const ALPHANUMERIC = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

/** Uniformly random alphanumeric string from the CSPRNG (randomInt rejects modulo bias). */
export function randomAlphanumeric(length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) out += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return out;
}
