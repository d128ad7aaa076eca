import { createSessionContext, type SessionToken } from "@/server/api/trpc/context";
import { createCaller } from "@/server/api/root";
import type { Db } from "@/server/db/client";
import type { RequestClient } from "@/server/domain/audit/record-audit";
import { signInWithPassword } from "@/server/domain/sessions/sign-in";
import { testServices } from "./config";
import type { Services } from "@/server/api/trpc/context";

/**
 * Signs in as the dashboard does (a server-side session is opened); what the cookie would carry. The
 * device is "vitest" at no known address unless `client` says otherwise.
 */
export async function signInForTest(db: Db, email: string, password: string, client: Partial<RequestClient> = {}): Promise<SessionToken> {
  const signedIn = await signInWithPassword(db, { email, password, userAgent: "vitest", ipAddress: null, ...client });
  if (!signedIn) throw new Error(`sign-in of ${email} failed`);
  return { userId: signedIn.user.id, sessionId: signedIn.sessionId };
}

/** The dashboard API as the holder of `session` calls it (null: signed out), acting for `organizationId` when given. */
export async function callerFor(db: Db, session: SessionToken | null, organizationId: string | null = null, overrides: Partial<Services> = {}, headers = new Headers()) {
  return createCaller(await createSessionContext(testServices(db, overrides), headers, session, organizationId));
}
