import type { SignUpInput } from "@/lib/schemas/accounts";
import type { Db } from "@/server/db/client";
import { conflict } from "@/server/domain/errors";
import { insertOrganization } from "@/server/domain/organizations/create-organization";
import { isUniqueViolation } from "@/server/domain/db-errors";
import { hashPassword } from "./password";

/** Creates the account and its first organisation, with the new user as owner. */
export async function signUp(db: Db, input: SignUpInput) {
  const passwordHash = await hashPassword(input.password);
  try {
    return await db.$transaction(async (tx) => {
      const user = await tx.user.create({
        data: { email: input.email, name: input.name ?? null, passwordHash },
      });
      const organization = await insertOrganization(tx, user.id, input.organizationName);
      return { user, organization };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw conflict("An account with this e-mail already exists.", "email");
    }
    throw error;
  }
}
