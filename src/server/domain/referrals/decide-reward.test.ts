import { describe, expect, it } from "vitest";
import { decideReward, type RewardFacts } from "@/server/domain/referrals/decide-reward";
import { DAY_MS as DAY } from "@/test/names";

const now = new Date("2026-06-30T12:00:00Z");
const facts = (over: Partial<RewardFacts> = {}, item: Partial<RewardFacts["item"]> = {}): RewardFacts => ({
  item: { status: "Pending", rewardEventName: null, referrerId: "a", refereeId: "b", createdAt: new Date(now.getTime() - DAY), ...item },
  eventName: null,
  attributionWindowDays: 30,
  attributionModel: "first",
  now,
  refereeRewarded: false,
  reverseRewarded: false,
  earlierArrivalOpen: false,
  laterArrivalOpen: false,
  ...over,
});

describe("decideReward", () => {
  it("completes a Pending item that passes every check", () => {
    expect(decideReward(facts())).toEqual({ kind: "complete" });
    expect(decideReward(facts({ eventName: "signup" }))).toEqual({ kind: "complete" });
  });

  it("leaves final items alone", () => {
    expect(decideReward(facts({}, { status: "Completed" }))).toEqual({ kind: "final", reason: "already_completed" });
    expect(decideReward(facts({}, { status: "Failed" }))).toEqual({ kind: "final", reason: "already_failed" });
  });

  it("matches a pre-assigned event exactly and case-sensitively; absent means the item's own event", () => {
    const item = { rewardEventName: "purchase" };
    expect(decideReward(facts({ eventName: "purchase" }, item))).toEqual({ kind: "complete" });
    expect(decideReward(facts({ eventName: null }, item))).toEqual({ kind: "complete" });
    for (const eventName of ["Purchase", "purchase ", "signup"]) {
      expect(decideReward(facts({ eventName }, item))).toEqual({ kind: "record", reason: "event_mismatch" });
    }
  });

  it("never lets a mismatched event fail the item, even when another check would", () => {
    const decision = decideReward(
      facts({ eventName: "other", refereeRewarded: true }, { rewardEventName: "purchase", referrerId: "x", refereeId: "x" }),
    );
    expect(decision).toEqual({ kind: "record", reason: "event_mismatch" });
  });

  it("never completes an item without a referee: the event is recorded and the item stays as it is", () => {
    expect(decideReward(facts({}, { refereeId: null }))).toEqual({ kind: "record", reason: "referee_unknown" });
    expect(decideReward(facts({ earlierArrivalOpen: true }, { refereeId: null, createdAt: new Date(0) }))).toEqual({
      kind: "record",
      reason: "referee_unknown",
    });
  });

  it("fails self-referral, expiry, a rewarded referee, a mutual pair and a superseded arrival, in that order", () => {
    const all = { refereeRewarded: true, reverseRewarded: true, earlierArrivalOpen: true };
    expect(decideReward(facts(all, { refereeId: "a", createdAt: new Date(0) }))).toEqual({ kind: "fail", reason: "self_referral" });
    expect(decideReward(facts(all, { createdAt: new Date(0) }))).toEqual({ kind: "fail", reason: "expired" });
    expect(decideReward(facts(all))).toEqual({ kind: "fail", reason: "duplicate_referee" });
    expect(decideReward(facts({ ...all, refereeRewarded: false }))).toEqual({ kind: "fail", reason: "mutual_referral" });
    expect(decideReward(facts({ earlierArrivalOpen: true }))).toEqual({ kind: "fail", reason: "not_first_arrival" });
  });

  it("lets the first arrival complete by default, the last with the last model", () => {
    expect(decideReward(facts({ laterArrivalOpen: true }))).toEqual({ kind: "complete" });
    expect(decideReward(facts({ earlierArrivalOpen: true }))).toEqual({ kind: "fail", reason: "not_first_arrival" });
    const last = { attributionModel: "last" as const };
    expect(decideReward(facts({ ...last, earlierArrivalOpen: true }))).toEqual({ kind: "complete" });
    expect(decideReward(facts({ ...last, laterArrivalOpen: true }))).toEqual({ kind: "fail", reason: "not_last_arrival" });
  });

  it("expires strictly after the attribution window", () => {
    const at = (days: number, ms = 0) => facts({ attributionWindowDays: 7 }, { createdAt: new Date(now.getTime() - days * DAY - ms) });
    expect(decideReward(at(7))).toEqual({ kind: "complete" });
    expect(decideReward(at(7, 1))).toEqual({ kind: "fail", reason: "expired" });
  });
});
