import { z } from "zod";
import { caseInsensitive, pagingInput } from "./common";
import { searchTerm } from "./search";

/** Every kind of activity entry, with the words the dashboard shows. */
export const ACTIVITY_TYPE_LABELS = {
  user_created: "User created",
  referral_tracked: "Referral tracked",
  referee_identified: "Referee identified",
  reward_claimed: "Reward claimed",
  reward_rejected: "Reward rejected",
  event_recorded: "Event recorded",
  reward_held: "Reward held",
  review_decided: "Review decided",
  reward_revoked: "Reward revoked",
} as const;

export type ActivityType = keyof typeof ACTIVITY_TYPE_LABELS;
export const ACTIVITY_TYPES = Object.keys(ACTIVITY_TYPE_LABELS) as [ActivityType, ...ActivityType[]];

/** The activity feed's filter: one search box and the entry's type, together (AND). */
export const activityFilterSchema = z.object({
  search: searchTerm(
    "A tracking id, or an app user's client id (clientProvidedId), exactly, selects the entries of that referral, or of that user and their referrals; " +
      "any other text selects the entries whose description contains it (any case). Surrounding spaces are ignored.",
  ),
  type: caseInsensitive(ACTIVITY_TYPES).describe("Only entries of this type (any case).").meta({ examples: ["reward_rejected"] }).optional(),
});
export type ActivitySearch = z.output<typeof activityFilterSchema>;

export const activityListQuery = activityFilterSchema.extend(pagingInput);
