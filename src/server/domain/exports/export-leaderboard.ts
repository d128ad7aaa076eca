import { MAX_LEADERBOARD_LIMIT } from "@/lib/schemas/stats";
import type { Db } from "@/server/db/client";
import { getOwnedProject } from "@/server/domain/projects/get-owned-project";
import { getLeaderboard } from "@/server/domain/stats/get-leaderboard";
import { CsvBytes, csvFile } from "./csv-chunks";
import { exportFilename, type CsvExport } from "./csv-export";

export const LEADERBOARD_EXPORT_COLUMNS = ["rank", "clientProvidedId", "uniqueId", "successfulReferrals", "totalReferralsGiven"] as const;

/** The leaderboard as its page shows it (the best MAX_LEADERBOARD_LIMIT referrers of all time), ranked. */
export async function exportLeaderboard(db: Db, organizationId: string, projectId: string): Promise<CsvExport> {
  const project = await getOwnedProject(db, organizationId, projectId);
  async function* body() {
    const csv = new CsvBytes();
    (await getLeaderboard(db, project.id, MAX_LEADERBOARD_LIMIT)).forEach((e, i) => csv.add([i + 1, e.clientProvidedId, e.uniqueId, e.successfulReferrals, e.totalReferralsGiven]));
    yield csv.bytes();
  }
  return { filename: exportFilename(project.name, "leaderboard"), chunks: csvFile(LEADERBOARD_EXPORT_COLUMNS, body()) };
}
