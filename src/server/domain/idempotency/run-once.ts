import type { Db } from "@/server/db/client";
import { hashRequest } from "./hash-request";
import { withIdempotency } from "./with-idempotency";

export type OnceKey = {
  organizationId: string;
  /** The caller's `Idempotency-Key`; null runs without one. */
  key: string | null;
  /** What the key is scoped to: one operation of one project. */
  scope: string;
  /** The parsed input: a retry with the same key must send the same, in any field order or case. */
  input: unknown;
};

/**
 * Runs a side effect at most once per key: a retry with the same key and input within 24 hours gets
 * the first result again (see withIdempotency for conflicts and reuse).
 */
export async function runOnce<T>(db: Db, { organizationId, key, scope, input }: OnceKey, run: () => Promise<T>): Promise<T> {
  if (key === null) return run();
  const { body } = await withIdempotency(db, { organizationId, key: key.trim(), scope, requestHash: hashRequest(input) }, async () => ({
    status: 200,
    body: await run(),
  }));
  return body as T;
}
