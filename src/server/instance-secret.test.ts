import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "./config";
import { instanceSecret } from "./instance-secret";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "referloop-secret-"));
  dirs.push(dir);
  return path.join(dir, "data");
}

describe("instanceSecret", () => {
  it("generates a secret once into the data folder, readable only by its owner, and keeps it", () => {
    const dir = freshDataDir();
    const config = loadConfig({ REFERLOOP_DATA_DIR: dir });
    const first = instanceSecret("authSecret", config);
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(instanceSecret("authSecret", config)).toBe(first);
  });

  it("prefers the configured value, and another data folder gets its own secret", () => {
    const first = instanceSecret("encryptionKey", loadConfig({ REFERLOOP_DATA_DIR: freshDataDir() }));
    const second = instanceSecret("encryptionKey", loadConfig({ REFERLOOP_DATA_DIR: freshDataDir() }));
    expect(second).not.toBe(first);
    expect(instanceSecret("encryptionKey", loadConfig({ REFERLOOP_DATA_DIR: freshDataDir(), REFERLOOP_ENCRYPTION_KEY: "from-env" }))).toBe("from-env");
  });
});
