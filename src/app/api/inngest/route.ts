import { serve } from "inngest/next";
import { deliverRewardFunction } from "@/server/jobs/deliver-reward-function";
import { inngest } from "@/server/jobs/inngest-client";

// Inngest calls this endpoint to run the delivery function's steps (only used when Inngest is configured).
export const { GET, POST, PUT } = serve({ client: inngest, functions: [deliverRewardFunction] });
