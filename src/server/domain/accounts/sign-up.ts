import type { SignUpInput } from "@/lib/schemas/accounts";
import type { Db } from "@/server/db/client";
import type { RequestClient } from "@/server/domain/audit/record-audit";
import { DomainError, conflict } from "@/server/domain/errors";
import { joinByInvitation, lockPendingInvitation } from "@/server/domain/invitations/accept-invitation";
import { insertOrganization } from "@/server/domain/organizations/create-organization";
import { isUniqueViolation } from "@/server/domain/db-errors";
import { hashPassword } from "./password";

/**
 * Creates the account and, with it, either its first organisation (the new user as owner) or, with an
 * invitation's token, the membership the invitation offers and no organisation of its own. The token
 * came by e-mail to the invited address, so following it proves the address: the account starts
 * verified and the invitation is used up, all in one transaction (a spent, withdrawn or expired
 * invitation, or another address, creates nothing).
 */
export async function signUp(db: Db, input: SignUpInput, client: RequestClient = { userAgent: null, ipAddress: null }, now = new Date()) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const { invitationToken, organizationName } = input;
      if (invitationToken) {
        const invitation = await lockPendingInvitation(tx, invitationToken, now);
        if (invitation.email !== input.email) {
          throw new DomainError("invalid", `This invitation is for ${invitation.email}: sign up with that address to accept it.`, [
            { field: "email", rule: "invitation", message: `must be the invited address, ${invitation.email}` },
          ]);
        }
        const user = await tx.user.create({ data: { email: input.email, name: input.name ?? null, passwordHash, emailVerifiedAt: now } });
        const joined = await joinByInvitation(tx, invitation, user, client, now);
        return { user, organization: { id: joined.organizationId }, joined };
      }
      const user = await tx.user.create({ data: { email: input.email, name: input.name ?? null, passwordHash } });
      // The schema requires the name when there is no invitation; checked again for direct callers.
      if (organizationName === undefined) throw new DomainError("invalid", "Name the organisation.", [{ field: "organizationName", rule: "required", message: "is required" }]);
      const organization = await insertOrganization(tx, user.id, organizationName);
      return { user, organization, joined: null };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("An account with this e-mail already exists.", "email");
    }
    throw error;
  }
}
