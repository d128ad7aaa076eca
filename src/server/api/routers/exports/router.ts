import { router } from "@/server/api/trpc/procedures";
import { exportAppUsersProcedure } from "./export-app-users";
import { exportDeliveriesProcedure } from "./export-deliveries";
import { exportLeaderboardProcedure } from "./export-leaderboard";
import { exportReferralsProcedure } from "./export-referrals";
import { exportReviewDecisionsProcedure } from "./export-review-decisions";

/** CSV downloads: REST streams them (Meta.download); the dashboard downloads them from /api/projects/{projectId}/exports/{file}. */
export const exportsRouter = router({
  appUsers: exportAppUsersProcedure,
  referrals: exportReferralsProcedure,
  deliveries: exportDeliveriesProcedure,
  reviewDecisions: exportReviewDecisionsProcedure,
  leaderboard: exportLeaderboardProcedure,
});
