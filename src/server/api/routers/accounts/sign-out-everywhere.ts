import { requestClient } from "@/server/api/trpc/audit-actor";
import { sessionProcedure } from "@/server/api/trpc/procedures";
import { signOutEverywhere } from "@/server/domain/sessions/end-sessions";

/** Ends every session of the account, the caller's included (the dashboard then clears its cookie). */
export const signOutEverywhereProcedure = sessionProcedure.mutation(({ ctx }) =>
  signOutEverywhere(ctx.db, { id: ctx.actor.userId, email: ctx.actor.email }, requestClient(ctx)),
);
