import { getServerSession } from "next-auth";
import { authOptions } from "./auth-options";

/** The signed-in user's id in a server component or route handler, or null. */
export async function sessionUserId(): Promise<string | null> {
  const session = await getServerSession(authOptions());
  return (session?.user as { id?: string } | undefined)?.id ?? null;
}
