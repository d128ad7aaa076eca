"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { can, type Permission } from "@/lib/permissions";
import { useRole } from "./permissions";

type NavLink = { href: string; label: string; matches?: (pathname: string) => boolean; permission?: Permission };

const LINKS: readonly NavLink[] = [
  { href: "/dashboard", label: "Projects", matches: (p) => p === "/dashboard" || p.startsWith("/dashboard/projects") },
  { href: "/dashboard/api-keys", label: "API keys" },
  { href: "/dashboard/organization", label: "Organisation" },
  { href: "/dashboard/audit-log", label: "Audit log", permission: "audit.read" },
  { href: "/dashboard/account", label: "Account" },
  { href: "/dashboard/api-reference", label: "API reference" },
];

export function DashboardNav() {
  const pathname = usePathname();
  const role = useRole();
  return (
    <nav aria-label="Dashboard">
      <ul className="space-y-0.5">
        {LINKS.filter((link) => !link.permission || can(role, link.permission)).map((link) => {
          const active = link.matches ? link.matches(pathname) : pathname.startsWith(link.href);
          return (
            <li key={link.href}>
              <Link
                href={link.href}
                aria-current={active ? "page" : undefined}
                className={`block rounded-md px-3 py-2 text-sm font-medium ${
                  active ? "bg-brand-50 text-brand-700" : "text-zinc-700 hover:bg-zinc-100 hover:text-zinc-900"
                }`}
              >
                {link.label}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
