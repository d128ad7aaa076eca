import { z } from "zod";
import { idInput, pageOf, projectIdInput } from "@/lib/schemas/common";
import { appUserEventsQuery, createAppUserBody, listAppUsersQuery, updateAppUserBody } from "@/lib/schemas/app-users";

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

export const appUserPathInput = { ...projectIdInput, uniqueId: idInput() };

export const createAppUserInput = createAppUserBody.extend(projectIdInput);
export const updateAppUserInput = updateAppUserBody.extend(appUserPathInput);
export const listAppUsersInput = listAppUsersQuery.extend(projectIdInput);
export const listAppUserEventsInput = appUserEventsQuery.extend(appUserPathInput);

export const appUserPageSchema = pageOf(appUserDtoSchema).meta({ id: "AppUserPage" });

export const appUserEventSchema = z
  .object({ id: z.string(), type: z.string(), description: z.string(), createdAt: z.string() })
  .meta({ id: "AppUserEventDto" });
