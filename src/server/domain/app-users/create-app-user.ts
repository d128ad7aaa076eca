import type { Db } from "@/server/db/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { insertAppUser } from "@/server/domain/app-users/insert-app-user";
import { parseAttributes, parseClientProvidedId } from "@/server/domain/app-users/parse-app-user-input";
import { toAppUserDto, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { DomainError } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type CreateAppUserInput = { clientProvidedId: string; attributes?: Record<string, string> | null };

/** Creates the user with a generated referral code; a client id already used in the project is a conflict. */
export async function createAppUser(
  db: Db,
  organizationId: string,
  projectId: string,
  input: CreateAppUserInput,
): Promise<AppUserDto> {
  const clientProvidedId = parseClientProvidedId(input.clientProvidedId);
  const attributes = parseAttributes(input.attributes);
  const project = await getOwnedProject(db, organizationId, projectId);
  const user = await db.$transaction(async (tx) => {
    const created = await insertAppUser(tx, { projectId: project.id, clientProvidedId, attributes });
    if (!created) throw duplicateClientId(clientProvidedId);
    await recordActivity(tx, {
      projectId: project.id,
      appUserId: created.id,
      type: "user_created",
      description: `App user ${clientProvidedId} was created.`,
    });
    return created;
  });
  return toAppUserDto({ ...user, referredBy: null });
}

const duplicateClientId = (clientProvidedId: string) => {
  const message = `An app user with ClientProvidedId "${clientProvidedId}" already exists in this project.`;
  return new DomainError("conflict", message, [{ field: "clientProvidedId", rule: "unique", message }]);
};
