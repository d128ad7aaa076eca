import { z } from "zod";
import { caseInsensitive, exactText, pageOf, pagingInput, projectIdInput, queryBoolean } from "@/server/api/schemas";
import { APP_USER_SORT_FIELDS, SEARCH_MAX_LENGTH, SORT_ORDERS } from "@/server/domain/app-users/list-app-users";
import {
  ATTRIBUTE_KEY_MAX_LENGTH,
  ATTRIBUTE_VALUE_MAX_LENGTH,
  CLIENT_PROVIDED_ID_MAX_LENGTH,
  MAX_ATTRIBUTES,
} from "@/server/domain/app-users/parse-app-user-input";

export const appUserDtoSchema = z
  .object({
    uniqueId: z.string(),
    clientProvidedId: z.string(),
    referralCode: z.string().describe("6 alphanumeric characters, unique within the project."),
    attributes: z.record(z.string(), z.string()),
    firstSeenAt: z.string(),
    lastSeenAt: z.string().nullable(),
    totalReferralsGiven: z.number().int().describe("Referral arrivals tracked with this user's code."),
    totalReferralsReceived: z.number().int().describe("Times this user arrived through a referral."),
    successfulReferrals: z.number().int().describe("This user's referrals that were rewarded."),
    status: z.string(),
    referredBy: z.string().nullable().describe("The `clientProvidedId` of the referrer whose reward completed first."),
    createdAt: z.string(),
  })
  .meta({ id: "AppUserDto" });

export const attributesInput = z
  .record(z.string().min(1).max(ATTRIBUTE_KEY_MAX_LENGTH), z.string().max(ATTRIBUTE_VALUE_MAX_LENGTH))
  .refine((a) => Object.keys(a).length <= MAX_ATTRIBUTES, { message: `at most ${MAX_ATTRIBUTES} attributes` })
  .describe(`String to string, at most ${MAX_ATTRIBUTES} entries.`);

export const clientProvidedIdInput = exactText(CLIENT_PROVIDED_ID_MAX_LENGTH);

export const appUserPathInput = { ...projectIdInput, uniqueId: z.string().min(1).max(100) };

export const listAppUsersInput = z.object({
  ...projectIdInput,
  search: z.string().max(SEARCH_MAX_LENGTH).optional().describe("Case-insensitive part of the client id, or an exact referral code."),
  sortBy: caseInsensitive(APP_USER_SORT_FIELDS).optional().describe(`One of ${APP_USER_SORT_FIELDS.join(", ")} (any case). Default createdAt.`),
  sortOrder: caseInsensitive(SORT_ORDERS).optional().describe("asc or desc. Default desc."),
  hasReferrals: queryBoolean().optional().describe("true: users whose code brought at least one tracked referral; false: none."),
  ...pagingInput,
});

export const appUserPageSchema = pageOf(appUserDtoSchema).meta({ id: "AppUserPage" });

export const appUserEventSchema = z
  .object({ id: z.string(), type: z.string(), description: z.string(), createdAt: z.string() })
  .meta({ id: "AppUserEventDto" });
