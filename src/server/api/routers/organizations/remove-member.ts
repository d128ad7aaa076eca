import { removeMemberBody } from "@/lib/schemas/accounts";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { removeMember } from "@/server/domain/organizations/remove-member";

/**
 * Step two: removes the member and revokes every key of theirs: the ones the owner confirmed (the
 * preview's list) and any created since, which the answer names (`unconfirmedApiKeys`) so the dashboard
 * shows them; a removal is never refused for keys a member keeps creating. Audited: the removal (with
 * the keys revoked beyond the confirmation), and each revoked key.
 */
export const removeMemberProcedure = memberProcedure
  .meta({ permission: "members.remove", changesCredentials: true })
  .input(removeMemberBody)
  .mutation(async ({ ctx, input }) => {
    const removed = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => removeMember(tx, ctx.organizationId, input.userId, input.revokeApiKeyIds, ctx.actor.userId),
      (r) => [
        {
          action: "member.remove",
          target: { type: "member", id: r.userId, label: r.email },
          details: {
            role: r.role,
            revokedApiKeys: r.revokedApiKeys.map((k) => k.name),
            ...(unconfirmed(r).length ? { unconfirmedApiKeys: unconfirmed(r).map((k) => k.name) } : {}),
          },
        },
        ...r.revokedApiKeys.map((k) => ({
          action: "api_key.delete" as const,
          target: { type: "apiKey", id: k.id, label: k.name },
          details: { reason: `creator ${r.email} removed from the organisation` },
        })),
      ],
    );
    return {
      userId: removed.userId,
      revokedApiKeyIds: removed.revokedApiKeys.map((k) => k.id),
      unconfirmedApiKeys: unconfirmed(removed).map(({ id, name }) => ({ id, name })),
    };
  });

/** The keys revoked that the confirmation did not list: created after it was shown. */
const unconfirmed = (r: { revokedApiKeys: { id: string; name: string; confirmed: boolean }[] }) => r.revokedApiKeys.filter((k) => !k.confirmed);
