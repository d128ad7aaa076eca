import { router } from "@/server/api/trpc/procedures";
import { getOnboardingProcedure } from "./get-onboarding";

export const onboardingRouter = router({
  get: getOnboardingProcedure,
});
