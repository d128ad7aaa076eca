import { Prisma } from "@/generated/prisma/client";
import type { AppUserAttributes } from "@/lib/schemas/app-users";
import { recordActivity } from "@/server/domain/activity/record-activity";
import { insertAppUser } from "@/server/domain/app-users/insert-app-user";
import { NEW_USER_COLUMNS, selectAppUser, type AppUserColumns } from "@/server/domain/app-users/to-app-user-dto";

export type GetOrCreateAppUserInput = {
  clientProvidedId: string;
  /**
   * The user's attributes: a new user gets them; an existing user's map is replaced by them, unless
   * `keepExisting`. Absent: left alone.
   */
  attributes?: AppUserAttributes;
  /**
   * The caller may create the user but not change one that exists (an unverified publishable-key call):
   * an existing user is only read, not even marked seen, since anyone can send any client id.
   */
  keepExisting?: boolean;
};

/**
 * The user with this client id, created on first sight (the referee of a track call, the SDK's
 * init-app-user and track-reward-event). Either way the user was just seen, so lastSeenAt moves to now
 * (unless `keepExisting`: then an existing user is left exactly as stored). Safe under
 * concurrent first calls and inside a transaction: the insert cannot abort it (see insertAppUser).
 * The project must already be authorised by the caller.
 */
export async function getOrCreateAppUser(
  tx: Prisma.TransactionClient,
  projectId: string,
  input: GetOrCreateAppUserInput,
): Promise<{ user: AppUserColumns; created: boolean }> {
  const { clientProvidedId, attributes, keepExisting } = input;
  const now = new Date();
  const key = { projectId_clientProvidedId: { projectId, clientProvidedId } };
  const existing = await tx.appUser.findUnique({ where: key, select: { id: true } });
  if (!existing) {
    const created = await insertAppUser(tx, { projectId, clientProvidedId, attributes: attributes ?? {}, lastSeenAt: now });
    if (created) {
      await recordActivity(tx, {
        projectId,
        appUserId: created.id,
        type: "user_created",
        description: `App user ${clientProvidedId} was created on first sight.`,
      });
      return { user: { ...created, ...NEW_USER_COLUMNS }, created: true };
    }
  }
  // Existing, or created a moment ago by a concurrent call.
  if (!keepExisting) await tx.appUser.update({ where: key, data: { lastSeenAt: now, attributes }, select: { id: true } });
  const user = await selectAppUser(tx, Prisma.sql`u."projectId" = ${projectId} AND u."clientProvidedId" = ${clientProvidedId}`);
  if (!user) throw new Error(`App user ${clientProvidedId} of project ${projectId} vanished inside its transaction.`);
  return { user, created: false };
}
