import { sdkProcedure } from "@/server/api/trpc/sdk-procedures";
import { getNewUserExperience } from "@/server/domain/campaigns/get-new-user-experience";
import { newUserExperienceInput, newUserExperienceOutput } from "./sdk.types";

export const newUserExperienceProcedure = sdkProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/sdk/new-user-experience",
      tags: ["Client library"],
      summary: "Get the new-user banner",
      description: "The banner's promo text and position and, for a referral code, the referrer's display name. An unknown code answers 200 with `referrerName: null`: a stale link must not break the landing page.",
    },
  })
  .input(newUserExperienceInput)
  .output(newUserExperienceOutput)
  .mutation(({ ctx, input }) => getNewUserExperience(ctx.db, ctx.sdk.project.id, input.referralCode));
