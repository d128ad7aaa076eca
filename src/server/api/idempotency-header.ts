import { z } from "zod";

/** Documents the optional header on the operations that honour it. */
export const idempotencyKeyHeader = z.object({
  "Idempotency-Key": z.string().min(1).max(255).optional().describe("Makes retries safe; see the API description."),
});
