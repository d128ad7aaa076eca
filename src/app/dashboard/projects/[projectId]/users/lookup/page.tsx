import type { Metadata } from "next";
import Link from "next/link";
import { redirect } from "next/navigation";
import { TRPCError } from "@trpc/server";
import { appUserPath, appUsersPath } from "@/components/app-users/paths";
import { ErrorMessage } from "@/components/ui/alert";
import { serverContext } from "@/server/dashboard/caller";
import { createCaller } from "@/server/api/root";

export const metadata: Metadata = { title: "App user" };

type Props = { params: Promise<{ projectId: string }>; searchParams: Promise<{ clientId?: string | string[] }> };

/** Referral rows know users by their client id only: resolve it and go to the user's page. */
export default async function AppUserLookupPage({ params, searchParams }: Props) {
  const { projectId } = await params;
  const { clientId } = await searchParams;
  const context = await serverContext();
  if (!context.actor) redirect("/sign-in");
  const clientProvidedId = typeof clientId === "string" ? clientId : "";
  const caller = createCaller(context);
  const user = clientProvidedId
    ? await caller.appUsers.getByClientId({ projectId, clientProvidedId }).catch((error: unknown) => {
        if (error instanceof TRPCError && (error.code === "NOT_FOUND" || error.code === "BAD_REQUEST")) return null;
        throw error;
      })
    : null;
  if (user) redirect(appUserPath(projectId, user.uniqueId));
  return (
    <div className="space-y-3">
      <ErrorMessage>No app user with client id “{clientProvidedId}” in this project.</ErrorMessage>
      <Link href={appUsersPath(projectId)} className="text-sm font-medium text-brand-700 hover:underline">
        Back to app users
      </Link>
    </div>
  );
}
