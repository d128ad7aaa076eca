import { randomAlphanumeric } from "@/server/domain/tokens";

/** A name no other test (or rerun) has used: `prefix-` and 8 random characters. */
export const uniqueName = (prefix: string) => `${prefix}-${randomAlphanumeric(8)}`;

export const DAY_MS = 24 * 60 * 60 * 1000;
