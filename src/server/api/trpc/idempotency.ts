import { z } from "zod";
import type { Db } from "@/server/db/client";
import { runOnce } from "@/server/domain/idempotency/run-once";
import { IDEMPOTENCY_KEY_MAX_LENGTH } from "@/server/domain/idempotency/with-idempotency";

type IdempotentContext = { db: Db; headers: Headers; organizationId: string };

/**
 * Runs a side-effecting procedure under the request's `Idempotency-Key`, if it sent one: a retry
 * with the same key and input within 24 hours gets the first result again without a second effect.
 * The scope is the procedure, so REST and dashboard calls share it; the hash is of the parsed input,
 * so `ReferrerId` and `referrerId` count as the same body.
 */
export const idempotently = <T>(ctx: IdempotentContext, scope: string, input: unknown, run: () => Promise<T>): Promise<T> =>
  runOnce(ctx.db, { organizationId: ctx.organizationId, key: ctx.headers.get("idempotency-key"), scope, input }, run);

export const IDEMPOTENCY_DOC = `Accepts an \`Idempotency-Key\` header (1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} characters): a retry with the same key and body within 24 hours returns the first response without a second effect; the same key with a different body is a 422, and a retry while the first call is still running is a 409.`;

/** Documents the optional header on the operations that honour it (headers are read by `idempotently`, not parsed by zod). */
export const idempotencyKeyHeader = z.object({
  "Idempotency-Key": z
    .string()
    .min(1)
    .max(IDEMPOTENCY_KEY_MAX_LENGTH)
    .describe("Makes retries safe; see the API description.")
    .meta({ examples: ["order-4711-reward"] })
    .optional(),
});
