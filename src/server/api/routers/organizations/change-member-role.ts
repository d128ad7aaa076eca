import { changeMemberRoleBody } from "@/lib/schemas/accounts";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { changeMemberRole } from "@/server/domain/organizations/change-member-role";

/** Gives a member another role; their API keys are lowered to what the new role may create. */
export const changeMemberRoleProcedure = memberProcedure
  .meta({ permission: "members.changeRole", changesCredentials: true })
  .input(changeMemberRoleBody)
  .mutation(({ ctx, input }) =>
    audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => changeMemberRole(tx, ctx.organizationId, input.userId, input.role, ctx.actor.userId),
      (r) =>
        r.from === r.to
          ? []
          : [{ action: "member.role_change", target: { type: "member", id: r.userId, label: r.email }, details: { from: r.from, to: r.to, loweredApiKeys: r.cappedApiKeys.length } }],
    ),
  );
