import { z } from "zod";
import { appUserPathInput } from "@/server/api/routers/app-users/app-user.types";
import { caseInsensitive } from "@/server/api/schemas";
import { protectedProcedure } from "@/server/api/trpc";
import { listAppUserReferrals, REFERRAL_DIRECTIONS } from "@/server/domain/referrals/list-app-user-referrals";
import { referralFilterInput, referralPageSchema } from "./referral.types";

export const listAppUserReferralsProcedure = protectedProcedure
  .meta({
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/users/{uniqueId}/referrals",
      tags: ["App users"],
      summary: "List the referrals an app user gave or received",
    },
  })
  .input(z.object({ ...appUserPathInput, direction: caseInsensitive(REFERRAL_DIRECTIONS).default("given"), ...referralFilterInput }))
  .output(referralPageSchema)
  .query(({ ctx, input: { projectId, ...rest } }) => listAppUserReferrals(ctx.db, ctx.organizationId, projectId, rest));
