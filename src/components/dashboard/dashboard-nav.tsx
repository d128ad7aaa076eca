"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/dashboard", label: "Projects", matches: (p: string) => p === "/dashboard" || p.startsWith("/dashboard/projects") },
  { href: "/dashboard/api-keys", label: "API keys" },
  { href: "/dashboard/organization", label: "Organisation" },
  { href: "/dashboard/api-reference", label: "API reference" },
] as const;

export function DashboardNav() {
  const pathname = usePathname();
  return (
    <nav aria-label="Dashboard">
      <ul className="space-y-0.5">
        {LINKS.map((link) => {
          const active = "matches" in link ? link.matches(pathname) : pathname.startsWith(link.href);
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
