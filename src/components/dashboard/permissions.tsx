"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { MemberRole } from "@/generated/prisma/enums";
import { can, deniedReason, type Permission } from "@/lib/permissions";

const RoleContext = createContext<MemberRole | null>(null);

/** The signed-in user's role in the active organisation, for the controls below to ask about. */
export function RoleProvider({ role, children }: { role: MemberRole | null; children: ReactNode }) {
  return <RoleContext.Provider value={role}>{children}</RoleContext.Provider>;
}

export function useRole(): MemberRole | null {
  return useContext(RoleContext);
}

/**
 * Whether the user's role allows `permission` (the server checks the same table), and if not, the
 * sentence that says who can: shown beside a disabled control.
 */
export function usePermission(permission: Permission): { allowed: boolean; reason: string | null } {
  const allowed = can(useRole(), permission);
  return { allowed, reason: allowed ? null : deniedReason(permission) };
}

/** The reason a control is disabled, tied to it by `id` (aria-describedby). */
export function PermissionNote({ id, reason }: { id?: string; reason: string | null }) {
  if (!reason) return null;
  return (
    <p id={id} className="text-sm text-zinc-500">
      {reason}
    </p>
  );
}
