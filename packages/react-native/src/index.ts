export { createReferloopMobile, CLIPBOARD_PREFIX, STORAGE_KEYS } from "./create-referloop-mobile.js";
export type { HandleLinkResult, IdentifyResult, ReferloopMobile } from "./create-referloop-mobile.js";
export { ReferloopError } from "./errors.js";
export type { Problem, ReferloopErrorKind } from "./errors.js";
export { parseReferralLink } from "./parse-link.js";
export type * from "./types.js";
