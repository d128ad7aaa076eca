import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { instanceSecret } from "./instance-secret";

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

describe("instanceSecret", () => {
  it("generates a secret once into the data folder, readable only by its owner, and keeps it", () => {
    const dir = freshDataDir();
    vi.stubEnv("TEST_INSTANCE_SECRET", "");
    const first = instanceSecret("TEST_INSTANCE_SECRET", "test-secret");
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const file = path.join(dir, "test-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(instanceSecret("TEST_INSTANCE_SECRET", "test-secret")).toBe(first);
  });

  it("prefers the environment, and another data folder gets its own secret", () => {
    const first = (freshDataDir(), instanceSecret("TEST_INSTANCE_SECRET", "test-secret"));
    const second = (freshDataDir(), instanceSecret("TEST_INSTANCE_SECRET", "test-secret"));
    expect(second).not.toBe(first);
    vi.stubEnv("TEST_INSTANCE_SECRET", "from-env");
    expect(instanceSecret("TEST_INSTANCE_SECRET", "test-secret")).toBe("from-env");
  });
});
