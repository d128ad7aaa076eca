import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { config } from "@/server/config";

/** A secret the configuration must provide (production on PostgreSQL), with how to make one. */
export class MissingSecretError extends Error {
  constructor(readonly names: string[]) {
    super(
      `Set ${names.join(" and ")} before starting in production on PostgreSQL: every instance needs the same ` +
        `${names.length > 1 ? "values" : "value"}, so ${names.length > 1 ? "they are" : "it is"} not generated. ` +
        `Make ${names.length > 1 ? "each" : "one"} with: openssl rand -base64 32`,
    );
    this.name = "MissingSecretError";
  }
}

/**
 * The configured value, or on the embedded default one generated once into the data folder (mode
 * 0600) so it survives restarts: 32 random bytes as base64url. Production on PostgreSQL refuses to
 * generate (config.secretsRequired).
 */
export function instanceSecret(name: string, configured: string | undefined, fileName: string): string {
  if (configured) return configured;
  if (config.secretsRequired) throw new MissingSecretError([name]);
  const file = path.join(config.dataDir, fileName);
  // Read once per process: it is asked for on every dashboard request and every webhook send.
  let secret = fromFile.get(file);
  if (!secret) fromFile.set(file, (secret = readOrCreate(file)));
  return secret;
}

export const authSecret = () => instanceSecret("NEXTAUTH_SECRET", config.authSecret, "auth-secret");
export const encryptionKey = () => instanceSecret("REFERLOOP_ENCRYPTION_KEY", config.encryptionKey, "encryption-key");

/** Run at start: names every missing secret at once, rather than failing at the first sign-in or send. */
export function checkRequiredSecrets(): void {
  if (!config.secretsRequired) return;
  const missing = Object.entries({ NEXTAUTH_SECRET: config.authSecret, REFERLOOP_ENCRYPTION_KEY: config.encryptionKey })
    .filter(([, value]) => !value)
    .map(([name]) => name);
  if (missing.length) throw new MissingSecretError(missing);
}

const fromFile = new Map<string, string>();

function readOrCreate(file: string): string {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
    const secret = randomBytes(32).toString("base64url");
    try {
      // "wx": if another process won the race, keep its secret.
      writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
      return secret;
    } catch {
      return readFileSync(file, "utf8").trim();
    }
  }
}
