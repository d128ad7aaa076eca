export { createReferloopMobile, CLIPBOARD_PREFIX, STORAGE_KEYS } from "./create-referloop-mobile";
export type { HandleLinkResult, IdentifyResult, ReferloopMobile, ReferralSummaryResult } from "./create-referloop-mobile";
export { ReferloopError } from "./errors";
export type { Problem, ReferloopErrorKind } from "./errors";
export { parseReferralLink } from "./parse-link";
export type * from "./types";
