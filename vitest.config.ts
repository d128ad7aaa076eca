import path from "node:path";
import { defineConfig } from "vitest/config";

const alias = { "@": path.resolve(import.meta.dirname, "src") };
// The environment of the test process, set once here: a fixed key for webhook secrets at rest (nothing
// is generated into the data folder) and no access log. Tests that need other settings pass a Config.
const env = { REFERLOOP_ENCRYPTION_KEY: "test-encryption-key", REFERLOOP_ACCESS_LOG: "0", LOG_LEVEL: "warn" };
const tests = ["src/**/*.test.{ts,tsx}", "scripts/**/*.test.ts", "packages/*/src/**/*.test.ts"];
const integration = ["src/**/*.integration.test.{ts,tsx}", "scripts/**/*.integration.test.ts"];

/**
 * Two projects: `unit` (pure code, no services; `npm run test:unit`) and `integration` (each file in
 * its own fresh PostgreSQL database copied from a migrated template; `npm run test:integration`).
 */
export default defineConfig({
  resolve: { alias },
  test: {
    // Two cores: two test files at a time.
    maxWorkers: 2,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      // extends: the projects take the timeouts above (inline projects inherit nothing by default, so they ran at 5 s).
      { extends: true, test: { name: "unit", include: tests, exclude: integration, env } },
      { extends: true, test: { name: "integration", include: integration, env, globalSetup: ["src/test/global-setup.ts"] } },
    ],
  },
});
