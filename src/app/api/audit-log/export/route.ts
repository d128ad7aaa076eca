import { TRPCError } from "@trpc/server";
import type { z } from "zod";
import type { exportAuditEntriesInput } from "@/lib/schemas/audit";
import { problemFromError } from "@/server/http/problem";
import { problemResponse } from "@/server/api/rest/handle-rest-request";
import { createCaller } from "@/server/api/root";
import { serverContext } from "@/server/dashboard/caller";

/** The audit log export as a download (owners; the session cookie), with the list's filter in the query. */
export async function GET(req: Request) {
  // The procedure parses the query like any input; a bad filter is a 400 problem.
  const query = Object.fromEntries(new URL(req.url).searchParams) as z.input<typeof exportAuditEntriesInput>;
  try {
    const file = await createCaller(await serverContext()).auditLog.export(query);
    return new Response(file.body, {
      headers: {
        "content-type": file.contentType,
        "content-disposition": `attachment; filename="${file.filename}"`,
        "cache-control": "no-store",
        ...(file.truncated ? { "x-referloop-truncated": "true" } : {}),
      },
    });
  } catch (error) {
    if (!(error instanceof TRPCError)) throw error;
    return problemResponse({ ...problemFromError(error), instance: new URL(req.url).pathname });
  }
}
