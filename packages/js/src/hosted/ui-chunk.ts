import type { LoadUi } from "../sdk.ts";

/** The UI chunk's file name (content-hashed), set by scripts/build-sdk.mjs. */
declare const __UI_FILE__: string;

/** The hosted script's UI chunk sits beside the script: loaded from there, by URL, when first drawn. */
export const uiBeside =
  (scriptUrl: string): LoadUi =>
  () =>
    import(/* webpackIgnore: true */ new URL(__UI_FILE__, scriptUrl).href);
