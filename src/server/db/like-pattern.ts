/** `%term%` for ILIKE, the user's `%`, `_` and `\` taken literally: a search for "50%" is not a wildcard. */
export const containsPattern = (term: string) => `%${term.replace(/[\\%_]/g, "\\$&")}%`;
