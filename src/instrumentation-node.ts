/**
 * The configuration is read first, so a bad variable stops the start with a message naming it.
 * Opening the database here applies the embedded database's migrations before the first request,
 * and the delivery worker resumes whatever deliveries a previous process left due.
 */
import { getConfigOrExit } from "@/server/config";
import { startClickPurge, stopClickPurge } from "@/server/jobs/click-purge";
import { startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/delivery-worker";
import { installPeerAddressHeader } from "@/server/http/peer-address";

getConfigOrExit();
// Before the first request: landing-page clicks record the connection's address, not a header's claim.
installPeerAddressHeader();

await startDeliveryWorker();
startClickPurge();
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void Promise.all([stopDeliveryWorker(), stopClickPurge()]).finally(() => process.exit(0));
  });
}
