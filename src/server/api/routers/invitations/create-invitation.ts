import { TRPCError } from "@trpc/server";
import { inviteMemberBody } from "@/lib/schemas/accounts";
import { appLinkBase, appLinks } from "@/server/api/trpc/app-links";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { memberProcedure } from "@/server/api/trpc/procedures";
import { audited } from "@/server/domain/audit/audited";
import { createInvitation } from "@/server/domain/invitations/create-invitation";
import { sendInvitationEmail } from "@/server/mail/send";
import { logger } from "@/server/observability/logger";

/**
 * Invites an e-mail address with a role and sends the invitation (a single-use link, 7 days). The
 * invitation is saved first; if the e-mail then fails the answer says so (503), and inviting the
 * address again sends a new link.
 */
export const createInvitationProcedure = memberProcedure
  .meta({ permission: "members.invite" })
  .input(inviteMemberBody)
  .mutation(async ({ ctx, input }) => {
    const base = appLinkBase(ctx.config, ctx.headers);
    const { invitation, token } = await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => createInvitation(tx, { organizationId: ctx.organizationId, invitedById: ctx.actor.userId, email: input.email, role: input.role }),
      (r) => ({ action: "invitation.create", target: { type: "invitation", id: r.invitation.id, label: r.invitation.email }, details: { role: r.invitation.role } }),
    );
    try {
      await sendInvitationEmail(
        {
          to: invitation.email,
          inviter: invitation.invitedBy?.name || invitation.invitedBy?.email || "An owner",
          organization: invitation.organization.name,
          role: invitation.role,
          link: appLinks.invitation(base, token),
          expiresAt: invitation.expiresAt,
        },
        ctx.config,
      );
    } catch (error) {
      logger().error({ err: error }, "invitation e-mail failed");
      throw new TRPCError({ code: "SERVICE_UNAVAILABLE", message: "The invitation was saved but its e-mail could not be sent. Invite the address again to resend it." });
    }
    return { id: invitation.id, email: invitation.email, role: invitation.role, expiresAt: invitation.expiresAt.toISOString() };
  });
