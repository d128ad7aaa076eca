/** Human text for the machine reasons a reward event did not complete a referral. */
const REASONS: Record<string, string> = {
  already_completed: "Already completed: the reward was claimed before",
  already_failed: "Already failed: the referral was closed before",
  event_mismatch: "Different event: it was reserved for another reward event",
  self_referral: "Self-referral: the referee is the referrer",
  expired: "Expired: older than the campaign's attribution window",
  duplicate_referee: "Duplicate referee: this referrer was already rewarded for this user",
};

export function failureReasonText(reason: string): string {
  return REASONS[reason] ?? reason.replace(/_/g, " ");
}
