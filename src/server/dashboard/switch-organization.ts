"use server";

import { cookies } from "next/headers";
import { getConfig } from "@/server/config";
import { ACTIVE_ORGANIZATION_COOKIE } from "@/server/api/trpc/context";
import { serverContext } from "@/server/dashboard/caller";
import { createCaller } from "@/server/api/root";

/** Makes `organizationId` the organisation the dashboard acts for, if the user belongs to it. */
export async function switchOrganization(organizationId: string): Promise<{ ok: boolean }> {
  const context = await serverContext();
  if (!context.actor) return { ok: false };
  const me = await createCaller(context).accounts.me();
  if (!me.organizations.some((o) => o.id === organizationId)) return { ok: false };
  (await cookies()).set(ACTIVE_ORGANIZATION_COOKIE, organizationId, {
    path: "/",
    httpOnly: true,
    sameSite: "lax",
    secure: getConfig().secureCookies,
    maxAge: 60 * 60 * 24 * 365,
  });
  return { ok: true };
}
