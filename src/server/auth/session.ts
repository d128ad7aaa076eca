import { getServerSession } from "next-auth";
import type { SessionToken } from "@/server/api/trpc/context";
import { authOptions } from "./auth-options";

/**
 * The user and server-side session the request's cookie names, or null. Only the cookie is read
 * here: whether the session still exists is checked where the request's context is built.
 * A cookie from before sessions were recorded names none, and counts as signed out.
 */
export async function sessionToken(): Promise<SessionToken | null> {
  const session = (await getServerSession(authOptions())) as { user?: { id?: string }; sessionId?: string } | null;
  const userId = session?.user?.id;
  const sessionId = session?.sessionId;
  return userId && sessionId ? { userId, sessionId } : null;
}
