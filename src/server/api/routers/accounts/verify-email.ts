import { linkTokenInput } from "@/lib/schemas/accounts";
import { requestClient } from "@/server/api/trpc/audit-actor";
import { publicProcedure } from "@/server/api/trpc/procedures";
import { verifyEmail } from "@/server/domain/accounts/email-verification";

/** Follows the e-mailed verification link (single use); works signed in or not, the token is the proof. */
export const verifyEmailProcedure = publicProcedure.input(linkTokenInput).mutation(({ ctx, input }) => verifyEmail(ctx.db, input.token, requestClient(ctx)));
