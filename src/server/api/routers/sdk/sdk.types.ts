import { initAppUserBody, newUserExperienceBody, trackReferralSdkBody, trackRewardEventBody } from "@/lib/schemas/sdk";
import { rewardOutput } from "@/server/api/routers/referrals/referral.types";

// The answers the client libraries read live with their bodies in src/lib/schemas/sdk.ts, where the
// widget's and the mobile client's types come from.
export { attributionSchema, initAppUserOutput, newUserExperienceOutput, trackReferralOutput } from "@/lib/schemas/sdk";

/*
 * The client-library endpoints take no path ids (the key names the project): the bodies are the
 * inputs as they are.
 */
export const initAppUserInput = initAppUserBody;
export const trackReferralInput = trackReferralSdkBody;
export const newUserExperienceInput = newUserExperienceBody;
export const trackRewardEventInput = trackRewardEventBody;

export const trackRewardEventOutput = rewardOutput;
