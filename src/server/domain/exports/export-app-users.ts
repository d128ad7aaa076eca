import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { plannedArrays } from "@/server/db/prepared-statements";
import { userFilters, type ListAppUsersInput } from "@/server/domain/app-users/list-app-users";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { csvChunks, type CsvValue } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";
import { keysetBatches } from "./keyset-batches";

export type AppUserExportInput = Pick<ListAppUsersInput, "search" | "hasReferrals" | "attributeKey" | "attributeValue"> & { attributes?: string[] };

export const APP_USER_EXPORT_COLUMNS = [
  "uniqueId",
  "clientProvidedId",
  "referralCode",
  "status",
  "totalReferralsGiven",
  "totalReferralsReceived",
  "successfulReferrals",
  "firstSeenAt",
  "lastSeenAt",
  "createdAt",
] as const;

const CREATED_AT = APP_USER_EXPORT_COLUMNS.indexOf("createdAt");

/**
 * The project's app users the list's filters select (search: part of the client id, any case, or the
 * exact referral code; hasReferrals; one attribute's exact value), oldest first, as CSV: the user's
 * columns, then one column per chosen attribute key (empty where a user has none). Read in keyset
 * batches down the (projectId, createdAt) index. The project's ownership is checked before anything
 * is sent.
 */
export async function exportAppUsers(db: Db, organizationId: string, projectId: string, input: AppUserExportInput): Promise<CsvExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const keys = [...new Set(input.attributes ?? [])];
  // Each chosen key as a column of its own (its JSON value), so that no row's whole attribute map is parsed.
  const attributes = keys.length ? Prisma.join(keys.map((key, i) => Prisma.sql`u."attributes" -> ${key} AS ${Prisma.raw(`"a${i}"`)}`), ", ", ", ") : Prisma.empty;
  const batches = keysetBatches(
    async (after: { at: CsvValue; id: CsvValue } | null, limit) => {
      // The columns in the file's order (APP_USER_EXPORT_COLUMNS, then the keys).
      const rows = await plannedArrays<CsvValue[]>(db)`
        SELECT u."id", u."clientProvidedId", u."referralCode", u."status"::text AS "status", c."totalReferralsGiven", u."totalReferralsReceived",
          c."successfulReferrals", u."firstSeenAt", u."lastSeenAt", u."createdAt"${attributes}
        FROM "AppUser" u JOIN "AppUserCounters" c ON c."appUserId" = u."id"
        WHERE u."projectId" = ${project.id} ${userFilters(input)}
          ${after ? Prisma.sql`AND (u."createdAt", u."id") > (${after.at}::timestamp, ${after.id})` : Prisma.empty}
        ORDER BY u."createdAt", u."id" LIMIT ${limit}`;
      if (keys.length) for (const row of rows) for (let i = CREATED_AT + 1; i < row.length; i++) row[i] = attributeText(row[i]);
      return rows;
    },
    (row) => ({ at: row[CREATED_AT], id: row[0] }),
  );
  return { filename: exportFilename(project.name, "app-users"), chunks: csvChunks([...APP_USER_EXPORT_COLUMNS, ...keys], batches) };
}

const attributeText = (value: unknown) => (value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value));
