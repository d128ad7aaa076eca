/**
 * The server's own time for a statement (planning plus execution, as EXPLAIN ANALYZE reports them),
 * apart from the client and the scheduler: on a 2-core machine shared with test suites, a round trip's
 * p99 is mostly time spent waiting for a core, and this is what the query itself costs.
 */
import type pg from "pg";
import type { CapturedQuery } from "./capture-queries";
import { summarize, type LatencySummary } from "./stats";

type Plan = [{ "Planning Time": number; "Execution Time": number }];

/** Planning plus execution of one statement, in ms (TIMING OFF: no clock read per row). */
export async function serverTimeMs(client: pg.Client, sql: string, params: unknown[]): Promise<number> {
  const { rows } = await client.query<{ "QUERY PLAN": Plan }>(`EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${sql}`, params);
  const [plan] = rows[0]!["QUERY PLAN"];
  return plan["Planning Time"] + plan["Execution Time"];
}

/** Each of `statements` (as a call sent them) `runs` times after one warm-up: the sum of their server times per run. */
export async function serverTimes(client: pg.Client, statements: CapturedQuery[], runs: number): Promise<LatencySummary> {
  const sums: number[] = [];
  for (let i = -1; i < runs; i++) {
    let sum = 0;
    for (const s of statements) sum += await serverTimeMs(client, s.sql, s.params);
    if (i >= 0) sums.push(sum);
  }
  return summarize(sums);
}
