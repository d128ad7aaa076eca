/**
 * A delivery worker on its own, beside or instead of the app servers' built-in one (each `next start`
 * already runs one). Any number may run against one PostgreSQL: leases keep them from sending an
 * attempt twice, and whatever a stopped worker left due is picked up by the others.
 *
 *   npm run worker
 */
import { startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/scheduler";
import { checkRequiredSecrets } from "@/server/instance-secret";

// Production on PostgreSQL refuses to start without its secrets (the message says how to make them).
// Exit rather than throw: Next.js logs a failing instrumentation hook and serves on regardless.
try {
  checkRequiredSecrets();
} catch (error) {
  console.error(`[referloop] ${(error as Error).message}`);
  process.exit(1);
}

await startDeliveryWorker();
console.log("[deliveries] worker started");
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void stopDeliveryWorker().finally(() => process.exit(0));
  });
}
