import { router } from "@/server/api/trpc/procedures";
import { initAppUserProcedure } from "./init-app-user";
import { newUserExperienceProcedure } from "./new-user-experience";
import { referralSummaryProcedure } from "./referral-summary";
import { sdkTrackReferralProcedure } from "./track-referral";
import { trackRewardEventProcedure } from "./track-reward-event";

/** The client-library endpoints under /api/v1/sdk (web widget, mobile apps, the client's backend). */
export const sdkRouter = router({
  initAppUser: initAppUserProcedure,
  trackReferral: sdkTrackReferralProcedure,
  newUserExperience: newUserExperienceProcedure,
  trackRewardEvent: trackRewardEventProcedure,
  referralSummary: referralSummaryProcedure,
});
