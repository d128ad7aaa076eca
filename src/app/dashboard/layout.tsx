import Link from "next/link";
import { redirect } from "next/navigation";
import { getServerSession } from "next-auth";
import type { ReactNode } from "react";
import { DashboardNav } from "@/components/dashboard/dashboard-nav";
import { OrganizationSwitcher } from "@/components/dashboard/organization-switcher";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { serverCaller } from "@/lib/server/caller";
import { authOptions } from "@/server/auth/auth-options";
import { sessionUserId } from "@/server/auth/session";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const userId = await sessionUserId();
  if (!userId) redirect("/sign-in");
  const session = await getServerSession(authOptions());
  const me = await (await serverCaller(userId)).accounts.me().catch(() => null);
  if (!me) {
    // A valid session whose account is gone: redirecting to sign-in would bounce straight back.
    return (
      <main className="mx-auto max-w-md px-4 py-24 text-center">
        <h1 className="text-xl font-semibold">This account no longer exists</h1>
        <div className="mt-4">
          <SignOutButton />
        </div>
      </main>
    );
  }
  return (
    <div className="flex min-h-screen flex-col md:flex-row">
      <aside className="shrink-0 border-b border-zinc-200 bg-white md:w-64 md:border-r md:border-b-0">
        <div className="flex flex-col gap-6 px-4 py-5 md:sticky md:top-0 md:h-screen">
          <Link href="/dashboard" className="px-3 text-lg font-semibold tracking-tight text-brand-700">
            Referloop
          </Link>
          <div className="px-3">
            <OrganizationSwitcher organizations={me.organizations} activeId={me.activeOrganizationId} />
          </div>
          <DashboardNav />
          <div className="mt-auto border-t border-zinc-100 px-3 pt-4">
            <p className="truncate text-sm font-medium text-zinc-800" title={session?.user?.email ?? undefined}>
              {session?.user?.name || session?.user?.email}
            </p>
            {session?.user?.name && <p className="truncate text-xs text-zinc-500">{session.user.email}</p>}
            <div className="-ml-2.5 mt-2">
              <SignOutButton />
            </div>
          </div>
        </div>
      </aside>
      <main className="min-w-0 flex-1 px-4 py-8 md:px-10">
        <div className="mx-auto max-w-5xl">{children}</div>
      </main>
    </div>
  );
}
