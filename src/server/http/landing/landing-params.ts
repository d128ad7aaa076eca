import { eventNameSchema } from "@/lib/schemas/referrals";

export type LandingParams = { projectId: string; referralCode: string; rewardEventName: string | null };

/**
 * The referral a landing-page URL names, `/r/{projectId}/{code}[?rewardEventName=...]`, or null when
 * it cannot name one (then no query runs). Project ids are UUIDs and codes alphanumeric; the loose
 * patterns only keep junk away from the database.
 */
export function readLandingParams(path: { projectId: string; code: string }, url: URL): LandingParams | null {
  if (!/^[A-Za-z0-9-]{1,100}$/.test(path.projectId) || !/^[A-Za-z0-9]{1,32}$/.test(path.code)) return null;
  const event = url.searchParams.get("rewardEventName");
  if (event === null || event === "") return { projectId: path.projectId, referralCode: path.code, rewardEventName: null };
  const parsed = eventNameSchema.safeParse(event);
  return parsed.success ? { projectId: path.projectId, referralCode: path.code, rewardEventName: parsed.data } : null;
}
