import { z } from "zod";
import { ATTRIBUTE_KEY_MAX_LENGTH, listAppUsersQuery, MAX_ATTRIBUTES } from "./app-users";
import { deliveryFilterSchema } from "./deliveries";
import { referralFilterSchema } from "./referrals";

/*
 * The CSV exports' filters: each table's own (the app users', the referrals', the deliveries'), and
 * for app users the attribute keys to add as columns.
 */

export const EXPORT_FILES = ["app-users", "referrals", "deliveries", "review-decisions", "leaderboard"] as const;
export type ExportFile = (typeof EXPORT_FILES)[number];

export const appUsersExportQuery = listAppUsersQuery.pick({ search: true, hasReferrals: true, attributeKey: true, attributeValue: true }).extend({
  attributes: z
    .array(z.string().min(1).max(ATTRIBUTE_KEY_MAX_LENGTH))
    .max(MAX_ATTRIBUTES)
    .describe(`Attribute keys to add as columns, in this order (repeat the parameter: \`attributes=plan&attributes=country\`), at most ${MAX_ATTRIBUTES}.`)
    .meta({ examples: [["plan", "country"]] })
    .optional(),
});

export const referralsExportQuery = referralFilterSchema;

export const deliveriesExportQuery = deliveryFilterSchema;
