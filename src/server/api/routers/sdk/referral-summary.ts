import { referralSummaryBody } from "@/lib/schemas/sdk";
import { referralSummarySchema } from "@/lib/schemas/portal";
import { sdkProcedure } from "@/server/api/trpc/sdk-procedures";
import { DomainError } from "@/server/domain/errors";
import { getReferralSummary } from "@/server/domain/portal/get-referral-summary";
import { findSdkUser } from "@/server/domain/app-users/find-sdk-user";
import { speaksForUser } from "@/server/domain/projects/verify-user-hash";
import { publicOrigin } from "@/server/http/public-origin";

export const referralSummaryProcedure = sdkProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/sdk/referral-summary",
      tags: ["Client library"],
      summary: "The referrer's own summary",
      description:
        "What the referrer's own page shows, as data: their link and code, totals (arrived, joined, pending, being checked, rewarded), a page of their referred friends, rewards earned and milestone progress; sections the campaign hides are null. Only for an identified user: the secret, or the publishable key with a valid `userHash` (without one, a 401 and nothing about the user). An unknown user is a 404.",
    },
  })
  .input(referralSummaryBody)
  .output(referralSummarySchema)
  .mutation(async ({ ctx, input }) => {
    const { project, key } = ctx.sdk;
    if (!speaksForUser(project, key, input.userId, input.userHash)) {
      throw new DomainError("unauthorized", "The referral summary is for an identified user only: send userHash (the hex HMAC-SHA256 of userId keyed with the project secret, computed by your backend) with the publishable key.");
    }
    const appUserId = await findSdkUser(ctx.db, project.id, input.userId);
    return getReferralSummary(ctx.db, { project, appUserId, publicOrigin: publicOrigin(ctx.config, ctx.headers) }, input);
  });
