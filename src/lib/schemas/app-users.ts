import { z } from "zod";
import { caseInsensitive, exactText, pagingInput, queryBoolean } from "./common";
import { EXAMPLE } from "./examples";

export const CLIENT_PROVIDED_ID_MAX_LENGTH = 255;
export const MAX_ATTRIBUTES = 50;
export const ATTRIBUTE_KEY_MAX_LENGTH = 100;
export const ATTRIBUTE_VALUE_MAX_LENGTH = 1000;
export const SEARCH_MAX_LENGTH = 100;
/** One app user's timeline. */
export const DEFAULT_USER_EVENTS_LIMIT = 50;
export const MAX_USER_EVENTS_LIMIT = 100;

/** The client's own id is matched exactly (never trimmed or case-folded); only blank is refused. */
export const clientProvidedIdSchema = exactText(CLIENT_PROVIDED_ID_MAX_LENGTH);

/** An attribute's key and value as stored: kept exactly as sent (never trimmed), so a filter on them matches exactly too. */
export const attributeKeySchema = z.string().min(1).max(ATTRIBUTE_KEY_MAX_LENGTH);
export const attributeValueSchema = z.string().max(ATTRIBUTE_VALUE_MAX_LENGTH);

/** A flat string -> string map; bounded so a user row stays small. */
export const attributesSchema = z
  .record(attributeKeySchema, attributeValueSchema)
  .refine((a) => Object.keys(a).length <= MAX_ATTRIBUTES, { message: `must hold at most ${MAX_ATTRIBUTES} entries` })
  .describe(`String to string, at most ${MAX_ATTRIBUTES} entries.`)
  .meta({ maxProperties: MAX_ATTRIBUTES });

export type AppUserAttributes = z.infer<typeof attributesSchema>;

/** SortBy values (matched case-insensitively); each is backed by an index on (projectId, field). */
export const APP_USER_SORT_FIELDS = [
  "createdAt",
  "firstSeenAt",
  "lastSeenAt",
  "clientProvidedId",
  "successfulReferrals",
  "totalReferralsGiven",
] as const;
export type AppUserSortField = (typeof APP_USER_SORT_FIELDS)[number];
export const SORT_ORDERS = ["asc", "desc"] as const;
export type SortOrder = (typeof SORT_ORDERS)[number];
export const DEFAULT_APP_USER_SORT: { sortBy: AppUserSortField; sortOrder: SortOrder } = {
  sortBy: "createdAt",
  sortOrder: "desc",
};

/*
 * Request bodies and queries (without the path's ids). The procedures add the path; the domain's
 * input types are what these parse to; tests and scripts parse with them too.
 */
export const createAppUserBody = z
  .object({
    clientProvidedId: clientProvidedIdSchema.describe("The client's own id for the user; unique within the project, matched exactly."),
    attributes: attributesSchema.optional(),
  })
  .meta({
    title: "CreateAppUserRequest",
    examples: [{ clientProvidedId: EXAMPLE.referrer.clientProvidedId, attributes: { name: "Ada", plan: "pro" } }],
  });

export const updateAppUserBody = z
  .object({
    attributes: attributesSchema.describe("Replaces the stored map entirely; `{}` clears it."),
  })
  .meta({ title: "UpdateAppUserRequest", examples: [{ attributes: { name: "Ada Lovelace", plan: "enterprise" } }] });

/*
 * The attribute filter: one key and one value, both required together, matched exactly (case, spaces
 * and all, as stored). Two plain parameters rather than `attributes[plan]=pro`: each has its own
 * bounds in the document and its own name in a 400, and no client needs deepObject support.
 */
export const attributeFilterShape = {
  attributeKey: attributeKeySchema
    .describe(`With \`attributeValue\`: only users whose attribute of this key holds exactly that value. 1 to ${ATTRIBUTE_KEY_MAX_LENGTH} characters, matched exactly.`)
    .meta({ examples: ["plan"] })
    .optional(),
  attributeValue: attributeValueSchema
    .describe(`The value \`attributeKey\` must hold, matched exactly (any case difference or extra space is a different value); at most ${ATTRIBUTE_VALUE_MAX_LENGTH} characters, may be empty.`)
    .meta({ examples: ["pro"] })
    .optional(),
};

export const listAppUsersQuery = z.object({
  // Described before .optional(): the document takes a query parameter's schema from inside it.
  search: z
    .string()
    .trim()
    .max(SEARCH_MAX_LENGTH)
    .describe(
      "Matches users whose client id contains it (any case), whose referral code is exactly it, or whose `email` or `name` attribute starts with it (any case): what a support agent knows of a person.",
    )
    .meta({ examples: ["user-10"] })
    .optional(),
  sortBy: caseInsensitive(APP_USER_SORT_FIELDS)
    .default(DEFAULT_APP_USER_SORT.sortBy)
    .describe(`Any case. Default ${DEFAULT_APP_USER_SORT.sortBy}.`)
    .meta({ examples: ["successfulReferrals"] }),
  sortOrder: caseInsensitive(SORT_ORDERS).default(DEFAULT_APP_USER_SORT.sortOrder).describe(`Any case. Default ${DEFAULT_APP_USER_SORT.sortOrder}.`),
  hasReferrals: queryBoolean()
    .describe("true: users whose code brought at least one tracked referral; false: none. Any case.")
    .meta({ examples: [true] })
    .optional(),
  ...attributeFilterShape,
  ...pagingInput,
});

/**
 * The filter's two parameters go together: the one missing is named. A superRefine for the inputs that
 * carry the filter (zod refuses to extend or pick an object once it is refined, so it is added last).
 */
export function checkAttributeFilter(input: { attributeKey?: string; attributeValue?: string }, ctx: z.RefinementCtx) {
  if ((input.attributeKey === undefined) === (input.attributeValue === undefined)) return;
  const [missing, given] = input.attributeKey === undefined ? ["attributeKey", "attributeValue"] : ["attributeValue", "attributeKey"];
  ctx.addIssue({ code: "custom", path: [missing], message: `is required with \`${given}\`` });
}

export const appUserEventsQuery = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_USER_EVENTS_LIMIT)
    .default(DEFAULT_USER_EVENTS_LIMIT)
    .describe(`Events to return, 1 to ${MAX_USER_EVENTS_LIMIT} (default ${DEFAULT_USER_EVENTS_LIMIT}).`)
    .meta({ examples: [DEFAULT_USER_EVENTS_LIMIT] }),
});
