import { Prisma } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";
import { planned } from "@/server/db/prepared-statements";
import { userFilters, type ListAppUsersInput } from "@/server/domain/app-users/list-app-users";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { csvChunks } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";
import { keysetBatches, mapBatches } from "./keyset-batches";

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

type Row = {
  id: string;
  clientProvidedId: string;
  referralCode: string;
  status: string;
  totalReferralsGiven: number;
  totalReferralsReceived: number;
  successfulReferrals: number;
  firstSeenAt: Date;
  lastSeenAt: Date | null;
  createdAt: Date;
  attributes: Record<string, unknown> | null;
};

/**
 * The project's app users the list's filters select (search: part of the client id, any case, or the
 * exact referral code; hasReferrals; one attribute's exact value), oldest first, as CSV: the user's
 * columns, then one column per chosen attribute key (empty where a user has none). Read in keyset batches down the
 * (projectId, createdAt) index. The project's ownership is checked before anything is sent.
 */
export async function exportAppUsers(db: Db, organizationId: string, projectId: string, input: AppUserExportInput): Promise<CsvExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  const keys = [...new Set(input.attributes ?? [])];
  const attributes = keys.length ? Prisma.sql`u."attributes"` : Prisma.sql`NULL::jsonb`;
  const batches = keysetBatches(
    (after: { at: Date; id: string } | null, limit) => planned<Row>(db)`
      SELECT u."id", u."clientProvidedId", u."referralCode", u."status", c."totalReferralsGiven", u."totalReferralsReceived",
        c."successfulReferrals", u."firstSeenAt", u."lastSeenAt", u."createdAt", ${attributes} AS "attributes"
      FROM "AppUser" u JOIN "AppUserCounters" c ON c."appUserId" = u."id"
      WHERE u."projectId" = ${project.id} ${userFilters(input)}
        ${after ? Prisma.sql`AND (u."createdAt", u."id") > (${after.at}, ${after.id})` : Prisma.empty}
      ORDER BY u."createdAt", u."id" LIMIT ${limit}`,
    (row) => ({ at: row.createdAt, id: row.id }),
  );
  const rows = mapBatches(batches, (u) => [
    u.id,
    u.clientProvidedId,
    u.referralCode,
    u.status,
    u.totalReferralsGiven,
    u.totalReferralsReceived,
    u.successfulReferrals,
    u.firstSeenAt,
    u.lastSeenAt,
    u.createdAt,
    ...keys.map((key) => attributeText(u.attributes?.[key])),
  ]);
  return { filename: exportFilename(project.name, "app-users"), chunks: csvChunks([...APP_USER_EXPORT_COLUMNS, ...keys], rows) };
}

const attributeText = (value: unknown) => (value === undefined || value === null ? null : typeof value === "string" ? value : JSON.stringify(value));
