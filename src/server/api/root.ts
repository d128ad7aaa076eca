import { accountsRouter } from "./routers/accounts/router";
import { listActivityProcedure } from "./routers/activity/list-activity";
import { apiKeysRouter } from "./routers/api-keys/router";
import { auditLogRouter } from "./routers/audit-log/router";
import { appUsersRouter } from "./routers/app-users/router";
import { campaignsRouter } from "./routers/campaigns/router";
import { deliveriesRouter } from "./routers/deliveries/router";
import { inboundHooksRouter } from "./routers/inbound-hooks/router";
import { exportsRouter } from "./routers/exports/router";
import { invitationsRouter } from "./routers/invitations/router";
import { onboardingRouter } from "./routers/onboarding/router";
import { organizationsRouter } from "./routers/organizations/router";
import { projectsRouter } from "./routers/projects/router";
import { referralsRouter } from "./routers/referrals/router";
import { reviewsRouter } from "./routers/reviews/router";
import { sdkRouter } from "./routers/sdk/router";
import { statsRouter } from "./routers/stats/router";
import { webhooksRouter } from "./routers/webhooks/router";
import { createCallerFactory, router } from "./trpc/procedures";

export const appRouter = router({
  accounts: accountsRouter,
  organizations: organizationsRouter,
  invitations: invitationsRouter,
  auditLog: auditLogRouter,
  apiKeys: apiKeysRouter,
  projects: projectsRouter,
  appUsers: appUsersRouter,
  campaigns: campaignsRouter,
  referrals: referralsRouter,
  reviews: reviewsRouter,
  activity: router({ list: listActivityProcedure }),
  webhooks: webhooksRouter,
  deliveries: deliveriesRouter,
  stats: statsRouter,
  inboundHooks: inboundHooksRouter,
  exports: exportsRouter,
  sdk: sdkRouter,
  onboarding: onboardingRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
