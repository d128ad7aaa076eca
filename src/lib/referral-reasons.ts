import { REWARD_REASON_TEXT } from "@/server/domain/referrals/decide-reward";

/** Human text for a machine reason a reward event did not complete a referral. */
export function failureReasonText(reason: string): string {
  return REWARD_REASON_TEXT[reason as keyof typeof REWARD_REASON_TEXT] ?? reason.replace(/_/g, " ");
}
