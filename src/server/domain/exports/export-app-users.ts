import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { userFilters, type ListAppUsersInput } from "@/server/domain/app-users/list-app-users";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { foldCredits } from "@/server/domain/referrals/referral-credits";
import { csvFile } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";
import { keysetCsv } from "./keyset-csv";

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
  // Each row's successfulReferrals from its counters alone: the rewards' credits are folded first.
  await foldCredits(db, { wait: true });
  const keys = [...new Set(input.attributes ?? [])];
  // Each chosen key as a column of its own (its JSON value), so that no row's whole attribute map is parsed.
  const attributes = keys.length ? Prisma.join(keys.map((key, i) => Prisma.sql`u."attributes" -> ${key} AS ${Prisma.raw(`"a${i}"`)}`), ", ", ", ") : Prisma.empty;
  const body = keysetCsv(db, {
    // The columns in the file's order (APP_USER_EXPORT_COLUMNS, then the keys).
    columns: Prisma.sql`u."id", u."clientProvidedId", u."referralCode", u."status"::text AS "status", c."totalReferralsGiven",
      u."totalReferralsReceived", c."successfulReferrals", u."firstSeenAt", u."lastSeenAt", u."createdAt"${attributes}`,
    // A LEFT JOIN, though every user has its counters (a trigger adds them), so that a batch's end
    // is found without them unless the filter reads them.
    from: Prisma.sql`"AppUser" u LEFT JOIN "AppUserCounters" c ON c."appUserId" = u."id" WHERE u."projectId" = ${project.id} ${userFilters(input)}`,
    at: Prisma.sql`u."createdAt"`,
    id: Prisma.sql`u."id"`,
    // Each chosen key's JSON value as text.
    prepare: keys.length
      ? (row) => {
          for (let i = CREATED_AT + 1; i < row.length; i++) row[i] = attributeText(row[i]);
        }
      : undefined,
  });
  return { filename: exportFilename(project.name, "app-users"), chunks: csvFile([...APP_USER_EXPORT_COLUMNS, ...keys], body) };
}

const attributeText = (value: unknown) => (value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value));
