"use client";

import { useQueryClient } from "@tanstack/react-query";
import { usePathname, useRouter } from "next/navigation";
import { useTransition } from "react";
import { switchOrganization } from "@/server/dashboard/switch-organization";

/** Switches the active organisation and drops everything cached for the previous one. */
export function useSwitchOrganization() {
  const queryClient = useQueryClient();
  const router = useRouter();
  const pathname = usePathname();
  const [pending, startTransition] = useTransition();
  const switchTo = (organizationId: string) =>
    startTransition(async () => {
      const { ok } = await switchOrganization(organizationId);
      if (!ok) return;
      if (pathname.startsWith("/dashboard/projects/")) {
        // A project page belongs to the previous organisation; the list is the sensible landing.
        queryClient.removeQueries();
        router.push("/dashboard");
      } else {
        await queryClient.resetQueries();
      }
      router.refresh();
    });
  return { switchTo, pending };
}
