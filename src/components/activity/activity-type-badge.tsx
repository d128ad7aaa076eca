import { Badge, type BadgeTone } from "@/components/ui/badge";

const TYPES: Record<string, { label: string; tone: BadgeTone }> = {
  user_created: { label: "User created", tone: "blue" },
  referral_tracked: { label: "Referral tracked", tone: "violet" },
  referee_identified: { label: "Referee identified", tone: "violet" },
  reward_claimed: { label: "Reward claimed", tone: "green" },
  reward_rejected: { label: "Reward rejected", tone: "red" },
  event_recorded: { label: "Event recorded", tone: "neutral" },
};

/** An activity entry's type; types added later on the server still show, in neutral. */
export function ActivityTypeBadge({ type }: { type: string }) {
  const known = TYPES[type];
  return (
    <Badge tone={known?.tone ?? "neutral"} className="whitespace-nowrap">
      {known?.label ?? type.replace(/_/g, " ")}
    </Badge>
  );
}
