/*
 * The ES module, /sdk/v1/referloop.mjs: the same API as the classic script, without a global and
 * without auto-init (call init yourself).
 *   import { init, identify } from "https://<app>/sdk/v1/referloop.mjs";
 */
import { createReferloop } from "./sdk";

const referloop = createReferloop(import.meta.url);

export const { init, identify, getReferralLink, open, close, on } = referloop;
export default referloop;
