import { expect, it } from "vitest";
import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc/procedures";
import { UNBATCHED_PROCEDURES } from "./trpc-batch";

it("the dashboard sends alone exactly the procedures the server refuses in a batch", () => {
  const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { meta?: Meta } }>);
  const unbatched = procedures.filter(([, p]) => p._def.meta?.batch === false).map(([path]) => path);
  expect(new Set(unbatched)).toEqual(UNBATCHED_PROCEDURES);
});
