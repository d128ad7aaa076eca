import { Badge, type BadgeTone } from "@/components/ui/badge";
import { ACTIVITY_TYPE_LABELS, type ActivityType } from "@/lib/schemas/activity";

const TONES: Record<ActivityType, BadgeTone> = {
  user_created: "blue",
  referral_tracked: "violet",
  referee_identified: "violet",
  reward_claimed: "green",
  reward_rejected: "red",
  event_recorded: "neutral",
  reward_held: "amber",
  review_decided: "neutral",
  reward_revoked: "red",
};

/** An activity entry's type; types added later on the server still show, in neutral. */
export function ActivityTypeBadge({ type }: { type: string }) {
  const known = type in ACTIVITY_TYPE_LABELS ? (type as ActivityType) : undefined;
  return (
    <Badge tone={known ? TONES[known] : "neutral"} className="whitespace-nowrap">
      {known ? ACTIVITY_TYPE_LABELS[known] : type.replace(/_/g, " ")}
    </Badge>
  );
}
