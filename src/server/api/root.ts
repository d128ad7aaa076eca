import { accountRouter } from "./routers/account/router";
import { apiKeysRouter } from "./routers/api-keys/router";
import { projectsRouter } from "./routers/projects/router";
import { createCallerFactory, router } from "./trpc";

export const appRouter = router({
  account: accountRouter,
  apiKeys: apiKeysRouter,
  projects: projectsRouter,
});

export type AppRouter = typeof appRouter;
export const createCaller = createCallerFactory(appRouter);
