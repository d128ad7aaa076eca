import { cookies, headers } from "next/headers";
import { ACTIVE_ORGANIZATION_COOKIE, appServices, createSessionContext } from "@/server/api/trpc/context";
import { createCaller } from "@/server/api/root";
import { sessionToken } from "@/server/auth/session";

/**
 * The request's context as the dashboard API builds it: a live session's user, or anonymous. The
 * request is read first: that makes the page dynamic before the database is opened, so a build never
 * touches it.
 */
export async function serverContext() {
  const requestHeaders = await headers();
  const session = await sessionToken();
  const organizationId = (await cookies()).get(ACTIVE_ORGANIZATION_COOKIE)?.value ?? null;
  return createSessionContext(await appServices(), requestHeaders, session, organizationId);
}

/** The tRPC procedures, called in-process for a server component, as the request's user. */
export async function serverCaller() {
  return createCaller(await serverContext());
}

/** Signed in with a session the server still holds (not signed out, revoked or expired). */
export async function isSignedIn(): Promise<boolean> {
  return (await serverContext()).actor !== null;
}
