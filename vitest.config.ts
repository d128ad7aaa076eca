import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(import.meta.dirname, "src") } },
  test: {
    include: ["src/**/*.test.ts", "scripts/**/*.test.ts"],
    globalSetup: ["src/test/global-setup.ts"],
    // The environment of the test process, set once here: a fixed key for webhook secrets at rest (nothing
    // is generated into the data folder) and no access log. Tests that need other settings pass a Config.
    env: { REFERLOOP_ENCRYPTION_KEY: "test-encryption-key", REFERLOOP_ACCESS_LOG: "0" },
    // Two cores: two test files at a time, each in its own fresh database.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
