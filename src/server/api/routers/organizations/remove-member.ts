import { removeMemberBody } from "@/lib/schemas/accounts";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { removeMember } from "@/server/domain/organizations/remove-member";

/**
 * Step two: removes the member and revokes exactly the keys the owner confirmed (the preview's list;
 * 409 if the member's keys changed since). Audited: the removal, and each revoked key.
 */
export const removeMemberProcedure = memberProcedure
  .meta({ permission: "members.remove", changesCredentials: true })
  .input(removeMemberBody)
  .mutation(async ({ ctx, input }) => {
    const removed = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => removeMember(tx, ctx.organizationId, input.userId, input.revokeApiKeyIds),
      (r) => [
        {
          action: "member.remove",
          target: { type: "member", id: r.userId, label: r.email },
          details: { role: r.role, revokedApiKeys: r.revokedApiKeys.map((k) => k.name) },
        },
        ...r.revokedApiKeys.map((k) => ({
          action: "api_key.delete" as const,
          target: { type: "apiKey", id: k.id, label: k.name },
          details: { reason: `creator ${r.email} removed from the organisation` },
        })),
      ],
    );
    return { userId: removed.userId, revokedApiKeyIds: removed.revokedApiKeys.map((k) => k.id) };
  });
