import type { z } from "zod";
import type { ReferrerExperience } from "@/lib/schemas/campaigns";
import type { BindingRefusal } from "@/lib/schemas/referrals";
import type { AttributionMethod, initAppUserBody } from "@/lib/schemas/sdk";
import type { Db } from "@/server/db/client";
import { getOrCreateAppUser } from "@/server/domain/app-users/get-or-create-app-user";
import { readReferrerExperience } from "@/server/domain/campaigns/campaign-config";
import type { ProjectKeyKind, SdkProject } from "@/server/domain/projects/authenticate-project-key";
import { speaksForUser } from "@/server/domain/projects/verify-user-hash";
import { readRewardRules } from "@/lib/schemas/reward-rules";
import { buildInstallFingerprint } from "@/server/domain/attribution/build-fingerprint";
import { resolveInstallAttribution } from "@/server/domain/attribution/resolve-install-attribution";
import { deviceKey, recordSightings, signalsOf } from "@/server/domain/reward-rules/sightings";
import { bindReferee, type AttributionToken } from "@/server/domain/referrals/bind-referee";
import { buildReferralLink } from "@/server/domain/referrals/build-referral-link";

export type InitAppUserInput = z.output<typeof initAppUserBody>;

export type Attribution = {
  method: AttributionMethod;
  /** 1 for a deterministic token; a fingerprint's match score; 0 for none. */
  confidence: number;
  /** Why the token the call passed bound nothing (only then). */
  reason?: BindingRefusal;
};

export type InitAppUserResult = {
  id: string;
  uniqueId: string;
  clientProvidedId: string;
  referralCode: string;
  referralLink: string | null;
  referrerExperience: ReferrerExperience;
  /** The item this user is the referee of: the one this call's token names, else their latest, else null. */
  referralTrackingId: string | null;
  attribution: Attribution;
};

/**
 * The signed-in user of the client's app: created if missing (with a fresh referral code), marked
 * seen, attributes replaced when sent, and bound as the referee of the referral the call's token names
 * (see bindReferee: exactly once, never to their own referral). Calling it again changes nothing but
 * lastSeenAt (and attributes when sent).
 *
 * Who may do what (speaksForUser): a call with the secret comes from the client's backend and is
 * trusted as it is; one with the publishable key, which every page of the client shows, speaks for its
 * user only with a valid `userHash` (required when the project turns identity verification on).
 * Without one it may create a user (and bind that new user) and read what a referral link already
 * shows, but nothing about an existing user is written (attributes, referrals, lastSeenAt, where their
 * client was seen: a stranger's sighting would fail their next referral `same_device`), and no
 * referral id of theirs is answered: anyone can send any userId.
 */
/** Where the call came from: what links, fingerprints and clipboard tokens need of the request. */
export type InitAppUserRequest = {
  /** The app's public origin, for Mobile projects' landing-page links. */
  publicOrigin: string;
  /** The client's address (trusted proxies applied), for the fingerprint. */
  clientIp: string | null;
  /** Keys that may have signed a landing page's clipboard token. */
  clipboardKeys: readonly Buffer[];
};

export async function initAppUser(
  db: Db,
  project: SdkProject,
  keyKind: ProjectKeyKind,
  input: InitAppUserInput,
  request: InitAppUserRequest,
): Promise<InitAppUserResult> {
  const verified = speaksForUser(project, keyKind, input.userId, input.userHash);
  const web = webToken(input);
  const { user, binding, method, confidence, readOnly } = await db.$transaction(async (tx) => {
    const { user, created } = await getOrCreateAppUser(tx, project.id, { clientProvidedId: input.userId, attributes: input.attributes, keepExisting: !verified });
    if (!verified && !created) {
      const named = web || input.installReferrer || input.clipboardToken || input.deepLink;
      return { user, binding: named ? UNVERIFIED : null, method: "none" as const, confidence: 0, readOnly: true };
    }
    if (web) return { user, binding: await bindReferee(tx, project.id, user, web), method: "cookie" as const, confidence: 1, readOnly: false };
    // A first launch of a Mobile project's app: its signals in order of certainty, then the fingerprint.
    // The click it matches is marked in this transaction, so a bind that fails releases it.
    const install =
      project.appType === "Mobile" && (input.installReferrer || input.clipboardToken || input.deepLink || input.device)
        ? await resolveInstallAttribution(
            tx,
            {
              projectId: project.id,
              installReferrer: input.installReferrer,
              clipboardToken: input.clipboardToken,
              deepLink: input.deepLink,
              device: input.device,
              ip: request.clientIp,
              now: new Date(),
              appUserId: user.id,
            },
            { clipboardKeys: request.clipboardKeys },
          )
        : null;
    if (!install || install.method === "none") return { user, binding: null, method: "none" as const, confidence: 0, readOnly: false };
    const token: AttributionToken =
      "referralTrackingId" in install.bind
        ? { kind: "tracking", referralTrackingId: install.bind.referralTrackingId }
        : { kind: "code", ...install.bind };
    return { user, binding: await bindReferee(tx, project.id, user, token), method: install.method, confidence: install.confidence, readOnly: false };
  });
  const [latest, campaign] = await Promise.all([
    binding?.bound || readOnly ? null : db.referralTracking.findFirst({ where: { refereeId: user.id }, orderBy: [{ createdAt: "desc" }, { id: "desc" }], select: { id: true } }),
    db.campaign.findUnique({ where: { projectId: project.id }, select: { referrerExperience: true, rewardRules: true } }),
  ]);
  // Where the client was seen from, for the same-device rule: kept only while the rule is on.
  if (!readOnly && campaign && readRewardRules(campaign.rewardRules).sameDevice !== "off") {
    const now = new Date();
    const device = input.device ? deviceKey(buildInstallFingerprint(input.device, request.clientIp, now)) : null;
    await recordSightings(db, project.id, user.id, signalsOf(request.clientIp, device), now);
  }
  return {
    id: user.id,
    uniqueId: user.id,
    clientProvidedId: user.clientProvidedId,
    referralCode: user.referralCode,
    referralLink: buildReferralLink(project, user.referralCode, null, request.publicOrigin),
    referrerExperience: readReferrerExperience(campaign?.referrerExperience),
    referralTrackingId: binding?.bound ? binding.trackingId : (latest?.id ?? null),
    attribution: binding?.bound ? { method, confidence } : { method: "none", confidence: 0, ...(binding ? { reason: binding.reason } : {}) },
  };
}

/** What an unverified call that names a referral for an existing user gets instead of a binding. */
const UNVERIFIED = { bound: false, reason: "identity_not_verified" } as const;

/** The web widget's stored token: the tracking id, else the referral code (`svc_tracked_referral`, `svc_ref_code`). */
function webToken(input: InitAppUserInput): AttributionToken | null {
  if (input.referralTrackingId) return { kind: "tracking", referralTrackingId: input.referralTrackingId };
  if (input.referralCode) return { kind: "code", referralCode: input.referralCode, rewardEventName: null };
  return null;
}
