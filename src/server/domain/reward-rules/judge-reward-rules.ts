import { Prisma } from "@/generated/prisma/client";
import type { ReviewReason, RewardRules } from "@/lib/schemas/reward-rules";
import type { BoundRewardItem } from "@/server/domain/referrals/load-reward-item";
import { isDisposableEmail } from "./disposable-email";
import { sharesDevice } from "./sightings";

export type RuleVerdict =
  | { kind: "pass" }
  | { kind: "block"; reason: "disposable_email" | "same_device" }
  | { kind: "hold"; reasons: ReviewReason[]; holdUntil: Date | null };

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * A campaign's disposable e-mail and same-device rules and its hold, for a reward that passed every
 * eligibility check (the caps are counted at the claim, under the referrer's lock). A rule set to
 * `block` refuses; one set to `review` holds the reward until a person decides (no end); with only the
 * hold, it ends `holdDays` after `now` and the reward completes by itself.
 */
export async function judgeRewardRules(
  db: Pick<Prisma.TransactionClient, "$queryRaw">,
  item: Pick<BoundRewardItem, "referrerId" | "refereeId" | "refereeEmail">,
  rules: RewardRules,
  now: Date,
): Promise<RuleVerdict> {
  const flagged: ReviewReason[] = [];
  if (rules.disposableEmail !== "off" && isDisposableEmail(item.refereeEmail)) {
    if (rules.disposableEmail === "block") return { kind: "block", reason: "disposable_email" };
    flagged.push("disposable_email");
  }
  if (rules.sameDevice !== "off" && (await sharesDevice(db, item.referrerId, item.refereeId))) {
    if (rules.sameDevice === "block") return { kind: "block", reason: "same_device" };
    flagged.push("same_device");
  }
  if (flagged.length > 0) return { kind: "hold", reasons: rules.holdDays > 0 ? [...flagged, "hold"] : flagged, holdUntil: null };
  if (rules.holdDays > 0) return { kind: "hold", reasons: ["hold"], holdUntil: new Date(now.getTime() + rules.holdDays * DAY_MS) };
  return { kind: "pass" };
}

/**
 * The stored rules (a jsonb expression) set nothing: no cap, both rules off, no hold. Stricter than
 * readRewardRules (a value it would read as off, such as "OFF", is not off here): the claim that reads
 * its item in its own statement claims only under this, and leaves any other campaign to the rules above.
 */
export const rulesOffSql = (rules: Prisma.Sql) => Prisma.sql`(jsonb_typeof(${rules}) IS DISTINCT FROM 'object'
    OR (COALESCE(${rules}->'maxRewardsPerReferrer', '{}') = '{}' AND COALESCE(${rules}->>'disposableEmail', 'off') = 'off'
      AND COALESCE(${rules}->>'sameDevice', 'off') = 'off' AND COALESCE(${rules}->>'holdDays', '0') = '0'))`;
