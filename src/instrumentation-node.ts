/**
 * Opening the database here applies the embedded database's migrations before the first request,
 * and the delivery worker resumes whatever deliveries a previous process left due.
 */
import { startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/scheduler";
import { checkRequiredSecrets } from "@/server/instance-secret";

// Production on PostgreSQL refuses to start without its secrets (the message says how to make them).
checkRequiredSecrets();

await startDeliveryWorker();
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void stopDeliveryWorker().finally(() => process.exit(0));
  });
}
