/** `%term%` for ILIKE, the user's `%`, `_` and `\` taken literally: a search for "50%" is not a wildcard. */
export const containsPattern = (term: string) => `%${escapeLike(term)}%`;

/** `term%` for LIKE: what starts with the term, its `%`, `_` and `\` taken literally. */
export const prefixPattern = (term: string) => `${escapeLike(term)}%`;

const escapeLike = (term: string) => term.replace(/[\\%_]/g, "\\$&");
