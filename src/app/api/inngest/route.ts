import { serve } from "inngest/next";
import { deliverRewardFunction } from "@/server/jobs/deliver-reward-function";
import { purgeClicksFunction } from "@/server/jobs/purge-clicks-function";
import { releaseHoldsFunction } from "@/server/jobs/release-holds-function";
import { getConfig } from "@/server/config";
import { inngest } from "@/server/jobs/inngest-client";

const handlers = serve({ client: inngest, functions: [deliverRewardFunction, purgeClicksFunction, releaseHoldsFunction] });
type Handler = typeof handlers.GET;

// Inngest calls this endpoint to run the delivery function and the click purge's cron. Without Inngest configured the embedded
// worker delivers, and the endpoint does not exist rather than answering 500 for a missing key.
const whenConfigured =
  (handler: Handler): Handler =>
  (...args) =>
    getConfig().inngestEnabled ? handler(...args) : Promise.resolve(new Response(null, { status: 404 }));

export const GET = whenConfigured(handlers.GET);
export const POST = whenConfigured(handlers.POST);
export const PUT = whenConfigured(handlers.PUT);
