/**
 * The configuration is read first, so a bad variable stops the start with a message naming it, and
 * every guard it relaxes is announced, one warning line each.
 * Opening the database here applies the embedded database's migrations before the first request,
 * and the delivery worker resumes whatever deliveries a previous process left due.
 */
import { appServices } from "@/server/api/trpc/context";
import { answerRest } from "@/server/api/rest/handle-rest-request";
import { answerSdk } from "@/server/api/rest/handle-sdk-request";
import { OPENAPI_DOCUMENT_PATH, serveOpenApiDocument } from "@/server/api/openapi/serve-document";
import { getConfigOrExit, warnAboutRelaxations } from "@/server/config";
import { serveDirectly, viaFetch, type DirectRoute } from "@/server/http/direct-routes";
import { answerForbiddenMethods } from "@/server/http/forbidden-methods";
import { recordPeerAddress } from "@/server/http/peer-address";
import { installRequestHooks } from "@/server/http/request-hooks";
import { startClickPurge, stopClickPurge } from "@/server/jobs/click-purge";
import { startDeliveryWorker, stopDeliveryWorker } from "@/server/jobs/delivery-worker";
import { serveWidget, WIDGET_PREFIX } from "@/server/http/widget-files";

const config = getConfigOrExit();
warnAboutRelaxations(config);

// Production only: `next dev` reloads the route files on change, and these would not (direct-routes.ts).
const direct: DirectRoute[] = config.devServer
  ? []
  : [
      { path: WIDGET_PREFIX, handle: (request) => serveWidget(request) },
      { path: "/api/v1/public/", handle: async (request) => answerRest(request, await appServices()) },
      { path: "/api/v1/sdk/", handle: async (request) => answerSdk(request, await appServices()) },
      { path: OPENAPI_DOCUMENT_PATH, handle: viaFetch(serveOpenApiDocument) },
    ];
// Before the first request: landing-page clicks record the connection's address, not a header's
// claim, methods the Fetch API cannot carry get a problem answer from the Node server itself, and the
// API and the widget are answered without Next.js's pipeline.
installRequestHooks([recordPeerAddress, answerForbiddenMethods, serveDirectly(direct)]);

await startDeliveryWorker();
startClickPurge();
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.once(signal, () => {
    void Promise.all([stopDeliveryWorker(), stopClickPurge()]).finally(() => process.exit(0));
  });
}
