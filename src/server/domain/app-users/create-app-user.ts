import type { AppUserAttributes } from "@/lib/schemas/app-users";
import type { Db } from "@/server/db/client";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { insertAppUser } from "@/server/domain/app-users/insert-app-user";
import { NEW_USER_COLUMNS, toAppUserDto, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { conflict } from "@/server/domain/errors";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";

export type CreateAppUserInput = { clientProvidedId: string; attributes?: AppUserAttributes };

/** Creates the user with a generated referral code; a client id already used in the project is a conflict. */
export async function createAppUser(
  db: Db,
  organizationId: string,
  projectId: string,
  input: CreateAppUserInput,
): Promise<AppUserDto> {
  const { clientProvidedId, attributes = {} } = input;
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
  return toAppUserDto({ ...user, ...NEW_USER_COLUMNS });
}

const duplicateClientId = (clientProvidedId: string) =>
  conflict(`An app user with ClientProvidedId "${clientProvidedId}" already exists in this project.`, "clientProvidedId");
