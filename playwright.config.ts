import { defineConfig } from "@playwright/test";

const port = Number(process.env.E2E_PORT ?? 3100);

/** What the e2e server relaxes (each announced at its start); e2e/security.spec.ts unsets them for its own server. */
export const E2E_RELAXATIONS = {
  REFERLOOP_DEV_MAILBOX: "true",
  WEBHOOK_ALLOW_PRIVATE_URLS: "true",
  REFERLOOP_ALLOW_HTTP_URLS: "true",
  REFERLOOP_ALLOW_INSECURE_COOKIES: "true",
  REFERLOOP_DISABLE_HSTS: "true",
};

/**
 * End-to-end tests drive Debian's Chromium against the production build (`next build` runs once,
 * before this). scripts/test.mjs prepares a fresh PostgreSQL database and passes DATABASE_URL.
 */
export default defineConfig({
  testDir: "e2e",
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 60_000,
  // CI lands on VMs whose speed differs threefold from one run to the next: an assertion waits up to
  // 10 s (Playwright's 5 s failed a walk on a slow one), still well inside the test's minute.
  expect: { timeout: 10_000 },
  // The JSON report (path from PLAYWRIGHT_JSON_OUTPUT_FILE) feeds the closing summary of npm test.
  reporter: process.env.PLAYWRIGHT_JSON_OUTPUT_FILE ? [["list"], ["json"]] : [["list"]],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
      ],
    },
    permissions: ["clipboard-read", "clipboard-write"],
    trace: "retain-on-failure",
  },
  webServer: {
    command: `npm start -- -p ${port} -H 127.0.0.1`,
    url: `http://127.0.0.1:${port}/api/v1/openapi.json`,
    reuseExistingServer: false,
    // The server starts in seconds on a quiet machine; CI's can be several times slower.
    timeout: 180_000,
    env: {
      // The suite serves http on 127.0.0.1 and delivers to receivers there: the guards that forbid
      // that are relaxed one by one (dashboard over http, http and private webhook targets, the
      // mailbox the e-mail tests read). The security spec starts a server of its own with none.
      ...E2E_RELAXATIONS,
      WEBHOOK_RETRY_BASE_MS: "200",
      NEXTAUTH_URL: `http://127.0.0.1:${port}`,
      NEXTAUTH_SECRET: "e2e-secret-not-for-production",
      // Production on PostgreSQL refuses to start without both secrets.
      REFERLOOP_ENCRYPTION_KEY: "e2e-encryption-key-not-for-production",
      // Every test signs up and in from 127.0.0.1: per-IP limits that fit the suite (the lockout keeps its defaults).
      RATE_LIMIT_SIGN_UP_PER_IP_PER_HOUR: "1000",
      RATE_LIMIT_SIGN_IN_PER_IP_PER_HOUR: "1000",
      RATE_LIMIT_ACCOUNT_EMAILS_PER_IP_PER_HOUR: "1000",
      RATE_LIMIT_ACCOUNT_LINKS_PER_IP_PER_HOUR: "1000",
    },
  },
});
