import { Prisma } from "@/generated/prisma/client";

const MARK = "/* prepared */";

/**
 * Begins a raw statement whose best plan does not depend on its values (a lookup by a unique key, the
 * reward claim, tracking, a delivery's result): PostgreSQL then parses it once per connection and,
 * after five custom plans, may keep a generic one. Planning was most of PostgreSQL's work on the
 * API's paths: the reward's item lookup took 0.8 ms parsed and planned each time, 0.2 ms prepared.
 * Statements without the mark are planned for their values every time: under a generic plan the
 * app-user search's `ILIKE '%term%'` answered in 2.6 s (p50) at 1,000,000 users instead of 20 to 40
 * ms, and the delivery claim took 10 to 97 s with 50,000 due (see claim-attempts.ts).
 */
export const PREPARED = Prisma.raw(`${MARK} `);

/**
 * More distinct marked texts than this are sent unnamed; the marked statements are a few dozen (one
 * per batch size for the delivery results), so the cap only guards against a marked statement whose
 * text varies without bound, which would otherwise grow every connection's statement cache.
 */
const MAX_NAMED = 500;
const names = new Map<string, string>();

/** The adapter's statement name: marked statements get one per text; "" sends a statement unnamed. */
export function preparedStatementName({ sql }: { sql: string }): string {
  if (!sql.startsWith(MARK)) return "";
  let name = names.get(sql);
  if (name === undefined && names.size < MAX_NAMED) {
    name = `referloop_${names.size}`;
    names.set(sql, name);
  }
  return name ?? "";
}
