import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardNav } from "@/components/dashboard/dashboard-nav";
import { OrganizationSwitcher } from "@/components/dashboard/organization-switcher";
import { RoleProvider } from "@/components/dashboard/permissions";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { VerifyEmailBanner } from "@/components/dashboard/verify-email-banner";
import { serverContext } from "@/server/dashboard/caller";
import { createCaller } from "@/server/api/root";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const context = await serverContext();
  // No cookie, or one whose session was signed out, revoked or has expired.
  if (!context.actor) redirect("/sign-in");
  const me = await createCaller(context).accounts.me();
  return (
    <RoleProvider role={me.role}>
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
              <Link href="/dashboard/account" className="block truncate text-sm font-medium text-zinc-800 hover:underline" title={me.email}>
                {me.email}
              </Link>
              {me.role && <p className="text-xs text-zinc-500 capitalize">{me.role}</p>}
              <div className="-ml-2.5 mt-2">
                <SignOutButton />
              </div>
            </div>
          </div>
        </aside>
        <main className="min-w-0 flex-1 px-4 py-8 md:px-10">
          <div className="mx-auto max-w-5xl">
            {!me.emailVerified && <VerifyEmailBanner email={me.email} />}
            {children}
          </div>
        </main>
      </div>
    </RoleProvider>
  );
}
