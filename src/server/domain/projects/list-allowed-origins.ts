import type { Db } from "@/server/db/client";

/** Every origin that at least one project allows: what a CORS preflight may be answered for. */
export async function listAllowedOrigins(db: Db): Promise<string[]> {
  const rows = await db.$queryRaw<{ origin: string }[]>`SELECT DISTINCT unnest("allowedOrigins") AS "origin" FROM "Project"`;
  return rows.map((r) => r.origin);
}
