import { z } from "zod";
import { idInput } from "@/lib/schemas/common";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { sessionProcedure } from "@/server/api/trpc/procedures";
import { revokeSession } from "@/server/domain/sessions/end-sessions";

/** Ends one of the account's sessions: that device is signed out on its next request. */
export const revokeSessionProcedure = sessionProcedure.input(z.object({ sessionId: idInput() })).mutation(async ({ ctx, input }) => {
  await revokeSession(ctx.db, { id: ctx.actor.userId, email: ctx.actor.email }, input.sessionId, requestClient(ctx));
});
