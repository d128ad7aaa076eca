import { accountRouter } from "./routers/account/router";
import { listActivityProcedure } from "./routers/activity/list-activity";
import { apiKeysRouter } from "./routers/api-keys/router";
import { appUsersRouter } from "./routers/app-users/router";
import { campaignRouter } from "./routers/campaign/router";
import { projectsRouter } from "./routers/projects/router";
import { referralsRouter } from "./routers/referrals/router";
import { webhooksRouter } from "./routers/webhooks/router";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  projects: projectsRouter,
  appUsers: appUsersRouter,
  campaign: campaignRouter,
  referrals: referralsRouter,
  activity: router({ list: listActivityProcedure }),
  webhooks: webhooksRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
