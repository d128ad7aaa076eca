import type { Db } from "@/server/db/client";
import { APP_USER_COLUMNS, toAppUserDto, APP_USER_JOINS, type AppUserColumns, type AppUserDto } from "@/server/domain/app-users/to-app-user-dto";
import { notFound } from "@/server/domain/errors";
import { prepared } from "@/server/db/prepared-statements";

type Row = Omit<AppUserColumns, "id"> & { id: string | null };

/**
 * By the id the client assigned in its own database (exact, case-sensitive match). One statement for
 * the project's ownership, the user, its counters and the referrer's client id: Prisma spends a round trip and
 * Node CPU per relation, and this is the most frequent read. The user side is a LEFT JOIN so that a
 * foreign or absent project and an unknown user stay two different "not found"s.
 */
export async function getAppUserByClientId(
  db: Db,
  organizationId: string,
  projectId: string,
  clientProvidedId: string,
): Promise<AppUserDto> {
  const [row] = await prepared<Row>(db)`
    SELECT ${APP_USER_COLUMNS}
    FROM "Project" p
    LEFT JOIN "AppUser" u ON u."projectId" = p."id" AND u."clientProvidedId" = ${clientProvidedId}
    ${APP_USER_JOINS}
    WHERE p."id" = ${projectId} AND p."organizationId" = ${organizationId}`;
  if (!row) throw notFound("Project");
  const { id, ...user } = row;
  if (id === null) throw notFound("App user");
  return toAppUserDto({ ...user, id });
}
