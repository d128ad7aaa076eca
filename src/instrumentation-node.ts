/**
 * The configuration is read first, so a bad variable stops the start with a message naming it.
 * Opening the database here applies the embedded database's migrations before the first request,
 * and the delivery worker resumes whatever deliveries a previous process left due.
 */
import { getConfigOrExit } from "@/server/config";
import { answerForbiddenMethods } from "@/server/http/forbidden-methods";
import { startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/delivery-worker";

getConfigOrExit();
answerForbiddenMethods();

await startDeliveryWorker();
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void stopDeliveryWorker().finally(() => process.exit(0));
  });
}
