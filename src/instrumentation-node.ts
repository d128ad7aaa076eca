/**
 * Opening the database here applies the embedded database's migrations before the first request,
 * and the delivery worker resumes whatever deliveries a previous process left due.
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
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void stopDeliveryWorker().finally(() => process.exit(0));
  });
}
