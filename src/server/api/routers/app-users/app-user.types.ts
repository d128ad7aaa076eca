import { z } from "zod";
import { cappedPageOf, idInput, LIST_COUNT_MAX, projectIdInput, withPath } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { appUserEventsQuery, checkAttributeFilter, createAppUserBody, listAppUsersQuery, updateAppUserBody } from "@/lib/schemas/app-users";

/** Referral codes as the service makes them (inputs accept more, so that a mistyped code is a 404). */
export const referralCodeOutput = z.string().regex(/^[A-Za-z0-9]{6}$/).describe("6 alphanumeric characters, unique within the project.");

const appUserExample = {
  ...EXAMPLE.referrer,
  attributes: { name: "Ada", plan: "pro" },
  firstSeenAt: EXAMPLE.at,
  lastSeenAt: EXAMPLE.later,
  totalReferralsGiven: 3,
  totalReferralsReceived: 0,
  successfulReferrals: 1,
  status: "Active",
  referredBy: null,
  createdAt: EXAMPLE.at,
};

export const appUserDtoSchema = z
  .object({
    uniqueId: z.guid(),
    clientProvidedId: z.string(),
    referralCode: referralCodeOutput,
    attributes: z.record(z.string(), z.string()),
    firstSeenAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime().nullable(),
    totalReferralsGiven: z.number().int().min(0).describe("Referral arrivals tracked with this user's code."),
    totalReferralsReceived: z.number().int().min(0).describe("Times this user arrived through a referral."),
    successfulReferrals: z.number().int().min(0).describe("This user's referrals that were rewarded."),
    status: z.string(),
    referredBy: z.string().nullable().describe("The `clientProvidedId` of the referrer whose reward completed first."),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: "AppUserDto",
    examples: [appUserExample],
  });

export const appUserPathInput = {
  ...projectIdInput,
  uniqueId: idInput().describe("The app user's `uniqueId`.").meta({ examples: [EXAMPLE.referrer.uniqueId] }),
};

export const createAppUserInput = withPath(createAppUserBody, projectIdInput);
export const updateAppUserInput = withPath(updateAppUserBody, appUserPathInput);
export const listAppUsersInput = listAppUsersQuery.extend(projectIdInput).superRefine(checkAttributeFilter);
export const listAppUserEventsInput = appUserEventsQuery.extend(appUserPathInput);

/** The list envelope with the count capped (LIST_COUNT_MAX): a search of a large project stays fast. */
export const appUserPageSchema = cappedPageOf(appUserDtoSchema, { id: "AppUserPage", max: LIST_COUNT_MAX, things: "users", narrow: "narrow the search for an exact count" });

export const appUserEventSchema = z
  .object({ id: z.guid(), type: z.string(), description: z.string(), createdAt: z.iso.datetime() })
  .meta({
    id: "AppUserEventDto",
    examples: [{ id: EXAMPLE.eventId, type: "reward_claimed", description: 'user-1001 earned a reward: user-2002 completed "first_purchase".', createdAt: EXAMPLE.later }],
  });

export const attributeKeysInput = z.object(projectIdInput);
export const attributeKeysOutput = z.object({ keys: z.array(z.string()).describe("Distinct attribute keys of the project's newest users, A to Z.") });
