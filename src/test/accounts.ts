import { afterAll, beforeAll } from "vitest";
import type { Db } from "@/server/db/client";
import { createTestDb, type TestDb } from "./db";
import { callerFor, signInForTest } from "./sessions";
import { startSmtpServer, type SmtpTestServer } from "./smtp";

/** The password the account tests sign up with. */
export const TEST_PASSWORD = "correct horse";
/** The dashboard's public URL, the base of e-mailed links in these tests. */
export const APP_URL = "https://app.example.com";

/**
 * For a test file of accounts, invitations or the audit log: a fresh database and a real SMTP server,
 * opened before its tests (handed to `use`, which keeps them) and closed after.
 */
export function withDbAndMail(use: (env: { t: TestDb; smtp: SmtpTestServer }) => void) {
  let env: { t: TestDb; smtp: SmtpTestServer } | undefined;
  beforeAll(async () => {
    env = { t: await createTestDb(), smtp: await startSmtpServer() };
    use(env);
  });
  afterAll(async () => {
    await env?.smtp.close();
    await env?.t.drop();
  });
}

type Caller = Awaited<ReturnType<typeof callerFor>>;

/** A new account signed up through the API (with its own organisation), then signed in once. */
export async function signUpForTest(db: Db, anonymous: Caller, email: string, organizationName = `Org of ${email}`) {
  const created = await anonymous.accounts.signUp({ email, password: TEST_PASSWORD, organizationName });
  return { ...created, email, session: await signInForTest(db, email, TEST_PASSWORD) };
}
