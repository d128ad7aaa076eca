export { createReferloopMobile, CLIPBOARD_PREFIX, STORAGE_KEYS } from "./create-referloop-mobile.ts";
export type { HandleLinkResult, IdentifyResult, ReferloopMobile, ReferralSummaryResult } from "./create-referloop-mobile.ts";
export { ReferloopError } from "./errors.ts";
export type { Problem, ReferloopErrorKind } from "./errors.ts";
export { parseReferralLink } from "./parse-link.ts";
export type * from "./types.ts";
