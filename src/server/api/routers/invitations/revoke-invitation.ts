import { z } from "zod";
import { idInput } from "@/lib/schemas/common";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { revokeInvitation } from "@/server/domain/invitations/revoke-invitation";

export const revokeInvitationProcedure = memberProcedure
  .meta({ permission: "members.invite" })
  .input(z.object({ id: idInput() }))
  .mutation(async ({ ctx, input }) => {
    await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => revokeInvitation(tx, ctx.organizationId, input.id),
      (r) => ({ action: "invitation.revoke", target: { type: "invitation", id: r.id, label: r.email }, details: { role: r.role } }),
    );
  });
