import Link from "next/link";
import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { DashboardNav } from "@/components/dashboard/dashboard-nav";
import { MobileNav } from "@/components/dashboard/mobile-nav";
import { OrganizationSwitcher } from "@/components/dashboard/organization-switcher";
import { RoleProvider } from "@/components/dashboard/permissions";
import { SignOutButton } from "@/components/dashboard/sign-out-button";
import { VerifyEmailBanner } from "@/components/dashboard/verify-email-banner";
import { ThemeSwitch } from "@/components/theme/theme-switch";
import { serverContext } from "@/server/dashboard/caller";
import { createCaller } from "@/server/api/root";

export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const context = await serverContext();
  // No cookie, or one whose session was signed out, revoked or has expired.
  if (!context.actor) redirect("/sign-in");
  const me = await createCaller(context).accounts.me();
  return (
    <RoleProvider role={me.role}>
      <a
        href="#main"
        className="sr-only rounded-md bg-brand-600 px-3 py-2 text-sm font-medium text-on-accent focus:not-sr-only focus:fixed focus:top-2 focus:left-2 focus:z-50"
      >
        Skip to content
      </a>
      <div className="flex min-h-screen flex-col md:flex-row">
        <aside className="shrink-0 border-b border-zinc-200 bg-white md:w-64 md:border-r md:border-b-0">
          <MobileNav>
            <div className="px-3">
              <OrganizationSwitcher organizations={me.organizations} activeId={me.activeOrganizationId} />
            </div>
            <DashboardNav />
            <div className="mt-auto space-y-3 border-t border-zinc-100 px-3 pt-4">
              <div>
                <Link href="/dashboard/account" className="block truncate text-sm font-medium text-zinc-800 hover:underline" title={me.email}>
                  {me.email}
                </Link>
                {me.role && <p className="text-xs text-zinc-500 capitalize">{me.role}</p>}
              </div>
              <ThemeSwitch />
              <div className="-ml-2.5">
                <SignOutButton />
              </div>
            </div>
          </MobileNav>
        </aside>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-8 focus:outline-none md:px-10">
          <div className="mx-auto max-w-5xl">
            {!me.emailVerified && <VerifyEmailBanner email={me.email} />}
            {children}
          </div>
        </main>
      </div>
    </RoleProvider>
  );
}
