/*
 * @referloop/js: the widget for bundlers. The same code as the hosted script (/sdk/v1/referloop.js),
 * imported instead of loaded: nothing runs and nothing touches the page until init; the UI is a
 * dynamic import, so a bundler that splits code puts it in a chunk of its own, fetched when first drawn.
 */
import { createReferloop, type Referloop } from "./sdk.ts";
import type { IdentifyOptions, InitOptions, ReferloopEvent, ReferloopEvents } from "./types.ts";

let widget: Referloop | undefined;
/** The page's one widget, created on first use. */
const instance = () => (widget ??= createReferloop(() => import("./ui/index.ts")));

/** Starts the widget: records a referral link arrival in the URL and shows the new-user banner. Once per page. */
export function init(options: InitOptions & { apiBaseUrl: string }): void {
  instance().init(options);
}

/** The signed-in user: loads their referral code and link and draws the trigger button as the campaign says. */
export function identify(options: IdentifyOptions): void {
  instance().identify(options);
}

/** Opens the sharing UI (after identify). */
export function open(): void {
  instance().open();
}

export function close(): void {
  instance().close();
}

/** The identified user's referral link, or null before `ready`. */
export function getReferralLink(): string | null {
  return instance().getReferralLink();
}

/** Listens to a widget event; returns the function that stops listening. */
export function on<E extends ReferloopEvent>(event: E, handler: (detail: ReferloopEvents[E]) => void): () => void {
  return instance().on(event, handler);
}

export type { IdentifyOptions, InitOptions, ReferloopEvent, ReferloopEvents, ShareChannel } from "./types.ts";
