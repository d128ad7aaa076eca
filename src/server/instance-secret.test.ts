import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { checkRequiredSecrets, instanceSecret, MissingSecretError } from "./instance-secret";

const dirs: string[] = [];
afterEach(() => {
  vi.unstubAllEnvs();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function freshDataDir() {
  const dir = mkdtempSync(path.join(tmpdir(), "referloop-secret-"));
  dirs.push(dir);
  vi.stubEnv("REFERLOOP_DATA_DIR", path.join(dir, "data"));
  return path.join(dir, "data");
}

function productionOnPostgres() {
  vi.stubEnv("NODE_ENV", "production");
  vi.stubEnv("DATABASE_URL", "postgresql://app@db.example.com:5432/referloop");
}

describe("instanceSecret", () => {
  it("generates a secret once into the data folder, readable only by its owner, and keeps it", () => {
    const dir = freshDataDir();
    const first = instanceSecret("TEST_SECRET", undefined, "test-secret");
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, "test-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(instanceSecret("TEST_SECRET", undefined, "test-secret")).toBe(first);
  });

  it("prefers the configured value, and another data folder gets its own secret", () => {
    const first = (freshDataDir(), instanceSecret("TEST_SECRET", undefined, "test-secret"));
    const second = (freshDataDir(), instanceSecret("TEST_SECRET", undefined, "test-secret"));
    expect(second).not.toBe(first);
    expect(instanceSecret("TEST_SECRET", "from-env", "test-secret")).toBe("from-env");
  });

  it("never generates in production on PostgreSQL, where every instance must share the secret", () => {
    const dir = freshDataDir();
    productionOnPostgres();
    expect(() => instanceSecret("TEST_SECRET", undefined, "test-secret")).toThrow(MissingSecretError);
    expect(() => readFileSync(path.join(dir, "test-secret"))).toThrow();
    expect(instanceSecret("TEST_SECRET", "configured", "test-secret")).toBe("configured");
  });
});

describe("checkRequiredSecrets", () => {
  it("names every missing secret and how to make one, in production on PostgreSQL only", () => {
    vi.stubEnv("NEXTAUTH_SECRET", "");
    vi.stubEnv("REFERLOOP_ENCRYPTION_KEY", "");
    vi.stubEnv("NODE_ENV", "production");
    vi.stubEnv("DATABASE_URL", "");
    expect(() => checkRequiredSecrets()).not.toThrow(); // embedded default: generated
    productionOnPostgres();
    vi.stubEnv("REFERLOOP_ENV", "development"); // relaxed URL rules do not relax this
    expect(() => checkRequiredSecrets()).toThrow(
      "Set NEXTAUTH_SECRET and REFERLOOP_ENCRYPTION_KEY before starting in production on PostgreSQL: every instance needs the same values, so they are not generated. Make each with: openssl rand -base64 32",
    );
    vi.stubEnv("NEXTAUTH_SECRET", "s".repeat(44));
    expect(() => checkRequiredSecrets()).toThrow(/^Set REFERLOOP_ENCRYPTION_KEY before/);
    vi.stubEnv("REFERLOOP_ENCRYPTION_KEY", "k".repeat(44));
    expect(() => checkRequiredSecrets()).not.toThrow();
    vi.stubEnv("NODE_ENV", "development");
    vi.stubEnv("NEXTAUTH_SECRET", "");
    expect(() => checkRequiredSecrets()).not.toThrow();
  });
});
