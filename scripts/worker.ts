/**
 * A delivery worker on its own, beside or instead of the app servers' built-in one (each server
 * process runs one), with the purge's, the hold release's and the credit fold's timers. Any number
 * may run against one PostgreSQL: leases keep them from sending an attempt twice, and whatever a
 * stopped worker left due is picked up by the others (a stopping worker hands back what it holds
 * unsent).
 *
 *   npm run worker
 */
import { getConfigOrExit, warnAboutRelaxations } from "@/server/config";
import { startClickPurge, stopClickPurge } from "@/server/jobs/click-purge";
import { startHoldRelease, stopHoldRelease } from "@/server/jobs/hold-release";
import { startCreditFold, stopCreditFold } from "@/server/jobs/credit-fold";
import { startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/delivery-worker";
import { flushLogs, logger } from "@/server/observability/logger";

warnAboutRelaxations(getConfigOrExit());

await startDeliveryWorker();
// Also purges expired landing-page clicks, unless Inngest's cron does.
startClickPurge();
startHoldRelease();
startCreditFold();
logger().info("delivery worker started");
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void Promise.all([stopDeliveryWorker(), stopClickPurge(), stopHoldRelease(), stopCreditFold()])
      .finally(flushLogs)
      .finally(() => process.exit(0));
  });
}
