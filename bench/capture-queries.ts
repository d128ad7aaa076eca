/** The SQL that application code really sends, captured from a Prisma client with query events. */
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/generated/prisma/client";
import type { Db } from "@/server/db/client";

export type CapturedQuery = { sql: string; params: unknown[]; durationMs: number };

export async function captureQueries(url: string, run: (db: Db) => Promise<unknown>): Promise<CapturedQuery[]> {
  const captured: CapturedQuery[] = [];
  const logging = new PrismaClient({ adapter: new PrismaPg({ connectionString: url }), log: [{ emit: "event", level: "query" }] });
  logging.$on("query", (e) => captured.push({ sql: e.query, params: JSON.parse(e.params) as unknown[], durationMs: e.duration }));
  try {
    await run(logging);
  } finally {
    await logging.$disconnect();
  }
  return captured;
}

/**
 * "UPDATE ReferralTracking"-style label of a statement: its verb and first table, schema-qualified
 * (as Prisma writes) or not (as the application's raw SQL does; "WITH ReferralTracking" for a CTE).
 */
export function statementLabel(sql: string): string {
  const verb = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase() ?? "?";
  const table = /\b(?:FROM|INTO|UPDATE|JOIN)\s+(?:"public"\.)?"(\w+)"/i.exec(sql)?.[1];
  return table ? `${verb} ${table}` : verb;
}
