import type { Invitation } from "@/generated/prisma/client";

/** Invitations work for 7 days. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

export type InvitationState = "pending" | "accepted" | "revoked" | "expired";

export function invitationState(i: Pick<Invitation, "acceptedAt" | "revokedAt" | "expiresAt">, now = new Date()): InvitationState {
  if (i.acceptedAt) return "accepted";
  if (i.revokedAt) return "revoked";
  return i.expiresAt <= now ? "expired" : "pending";
}

/** Pending rows: not accepted, not revoked, not expired. */
export const pendingWhere = (now: Date) => ({ acceptedAt: null, revokedAt: null, expiresAt: { gt: now } });
