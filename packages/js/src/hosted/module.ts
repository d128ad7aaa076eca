/*
 * The ES module, /sdk/v1/referloop.mjs: the same API as the classic script, without a global and
 * without auto-init (call init yourself).
 *   import { init, identify } from "https://<app>/sdk/v1/referloop.mjs";
 */
import { createReferloop } from "../sdk.ts";
import { uiBeside } from "./ui-chunk.ts";

const referloop = createReferloop(uiBeside(import.meta.url), new URL(import.meta.url).origin);

export const { init, identify, getReferralLink, open, close, on } = referloop;
export default referloop;
