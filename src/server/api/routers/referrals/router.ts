import { router } from "@/server/api/trpc/procedures";
import { createReferralLinkProcedure } from "./create-referral-link";
import { getReferralProcedure } from "./get-referral";
import { grantRewardProcedure } from "./grant-reward";
import { listAppUserReferralsProcedure } from "./list-app-user-referrals";
import { listReferralsProcedure } from "./list-referrals";
import { listRewardEventsProcedure } from "./list-reward-events";
import { revokeReferralProcedure } from "./revoke-referral";
import { trackReferralProcedure } from "./track-referral";

export const referralsRouter = router({
  createLink: createReferralLinkProcedure,
  track: trackReferralProcedure,
  grantReward: grantRewardProcedure,
  list: listReferralsProcedure,
  get: getReferralProcedure,
  listForAppUser: listAppUserReferralsProcedure,
  listRewardEvents: listRewardEventsProcedure,
  revoke: revokeReferralProcedure,
});
