import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { getConfig, type Config } from "@/server/config";

const FILES = { authSecret: "auth-secret", encryptionKey: "encryption-key" } as const;

/**
 * A secret from the configuration, or on the embedded default one generated once into the data folder
 * (mode 0600) so it survives restarts. Returns 32 random bytes encoded as base64url when generated.
 */
export function instanceSecret(name: keyof typeof FILES, config: Config = getConfig()): string {
  const configured = config[name];
  if (configured) return configured;
  // turbopackIgnore: a file in the runtime data folder, not a build input (else the whole project is traced).
  const file = path.join(/* turbopackIgnore: true */ config.dataDir, FILES[name]);
  // Read once per process: it is asked for on every dashboard request and every webhook send.
  let secret = fromFile.get(file);
  if (!secret) fromFile.set(file, (secret = readOrCreate(file)));
  return secret;
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
