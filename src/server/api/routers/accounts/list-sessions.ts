import { sessionProcedure } from "@/server/api/trpc/procedures";
import { listSessions } from "@/server/domain/sessions/list-sessions";

/** The account's signed-in devices, the caller's own marked `current`. */
export const listSessionsProcedure = sessionProcedure.query(({ ctx }) => listSessions(ctx.db, ctx.actor.userId, ctx.actor.sessionId));
