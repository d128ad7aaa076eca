import { Readable } from "node:stream";
import { TRPCError } from "@trpc/server";
import { EXPORT_FILES, type ExportFile } from "@/lib/schemas/exports";
import { createCaller } from "@/server/api/root";
import { problemResponse } from "@/server/api/rest/handle-rest-request";
import { serverContext } from "@/server/dashboard/caller";
import { problemFromError } from "@/server/http/problem";

const PROCEDURES = {
  "app-users.csv": "appUsers",
  "referrals.csv": "referrals",
  "deliveries.csv": "deliveries",
  "review-decisions.csv": "reviewDecisions",
  "leaderboard.csv": "leaderboard",
} as const satisfies Record<
  `${ExportFile}.csv`,
  string
>;

/**
 * The dashboard's CSV downloads (the session cookie), with the table's filter in the query: the same
 * procedures as REST's GET /projects/{projectId}/exports/{file}.csv, streamed as they are read.
 */
export async function GET(req: Request, { params }: { params: Promise<{ projectId: string; file: string }> }) {
  const { projectId, file } = await params;
  const url = new URL(req.url);
  const procedure = PROCEDURES[file as keyof typeof PROCEDURES];
  try {
    if (!procedure || !EXPORT_FILES.some((f) => `${f}.csv` === file)) throw new TRPCError({ code: "NOT_FOUND", message: `No export named ${file}.` });
    // The procedure parses the query like any input: a bad filter is a 400 problem naming it.
    const query: Record<string, string | string[]> = Object.fromEntries(url.searchParams);
    if (url.searchParams.has("attributes")) query.attributes = url.searchParams.getAll("attributes");
    const caller = createCaller(await serverContext()).exports;
    const csv = await caller[procedure]({ ...query, projectId } as never);
    return new Response(Readable.toWeb(Readable.from(csv.chunks)) as ReadableStream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="${csv.filename}"`,
        "cache-control": "no-store",
      },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return problemResponse({ ...problemFromError(error), instance: url.pathname });
  }
}
