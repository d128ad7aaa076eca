import { z } from "zod";
import { CLIENT_PROVIDED_ID_MAX_LENGTH } from "./app-users";
import { EXAMPLE } from "./examples";
import { instantSchema } from "./instant";

/*
 * The pieces every support-console filter shares (deliveries, referrals, reward events, activity):
 * one search term, compared exactly, and a creation-time range. One reading each, so the lists, their
 * exports and the bulk retry refuse the same input with the same words.
 */

/** The longest id a term can be: a client id is the longest. */
export const SEARCH_MAX_LENGTH = CLIENT_PROVIDED_ID_MAX_LENGTH;

/** A search box's term: surrounding spaces dropped, never blank. */
export const searchTerm = (description: string) =>
  z
    .string()
    .trim()
    .min(1, { error: "must not be blank" })
    .max(SEARCH_MAX_LENGTH)
    .describe(description)
    .meta({ examples: [EXAMPLE.referee.clientProvidedId] })
    .optional();

/** The short id a table shows (an id's first 8 characters), as copied from it: with or without its ellipsis. */
const SHORT_ID = /^([0-9a-f]{8})(?:…|\.\.\.)?$/i;

/** The short id a term is, lower-cased (ids are), or null. */
export const shortIdTerm = (term: string): string | null => SHORT_ID.exec(term)?.[1]?.toLowerCase() ?? null;

/** A term that can be an e-mail address (it holds an `@`), or null: only such terms are compared with e-mail attributes. */
export const emailTerm = (term: string): string | null => (term.includes("@") ? term : null);

/** What a support console's search term matches, in words: the lists' descriptions say it once. */
export const NAMES_A_REFERRAL =
  "a tracking id or its short form as the tables show it (the first 8 characters), or either party's client id (clientProvidedId) or e-mail attribute (`email`, any case)";

const instant = instantSchema();

/** `from` (inclusive) and `to` (exclusive) on the creation time of `what`; pair with inOrder. */
export const createdRange = (what: string) => ({
  from: instant.describe(`${what} created at or after this instant (ISO 8601 with an offset).`).meta({ examples: [EXAMPLE.at] }).optional(),
  to: instant.describe(`${what} created before this instant.`).meta({ examples: [EXAMPLE.later] }).optional(),
});

/** The refinement of a range: a `from` that is not before `to` is a 400 naming `from`. */
export const inOrder: [(f: { from?: string | undefined; to?: string | undefined }) => boolean, { message: string; path: string[] }] = [
  (f) => !f.from || !f.to || new Date(f.from) < new Date(f.to),
  { message: "must be before `to`", path: ["from"] },
];
