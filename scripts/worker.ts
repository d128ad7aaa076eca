/**
 * A delivery worker on its own, beside or instead of the app servers' built-in one (each `next start`
 * already runs one). Any number may run against one PostgreSQL: leases keep them from sending an
 * attempt twice, and whatever a stopped worker left due is picked up by the others.
 *
 *   npm run worker
 */
import { getConfigOrExit } from "@/server/config";
import { startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/delivery-worker";

getConfigOrExit();

await startDeliveryWorker();
console.log("[deliveries] worker started");
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void stopDeliveryWorker().finally(() => process.exit(0));
  });
}
