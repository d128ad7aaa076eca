import { cookies, headers } from "next/headers";
import { ACTIVE_ORGANIZATION_COOKIE, appServices, createSessionContext } from "@/server/api/context";
import { createCaller } from "@/server/api/root";

/** The tRPC procedures, called in-process for a server component, as the signed-in user. */
export async function serverCaller(userId: string) {
  const context = await createSessionContext(
    await appServices(),
    await headers(),
    userId,
    (await cookies()).get(ACTIVE_ORGANIZATION_COOKIE)?.value ?? null,
  );
  return createCaller(context);
}
