/*
 * The loader's logic: attribution from the URL into cookies, the SDK API calls, the public API and its
 * events. The UI is a separate chunk, imported only when something must be drawn. Nothing here may
 * throw into the host page: failures are warned once and the widget stays hidden.
 */
import { ApiError, post } from "./api.ts";
import { readCookie, REF_CODE_COOKIE, TRACKED_REFERRAL_COOKIE, writeCookie } from "./cookies.ts";
import type {
  IdentifyOptions,
  InitAppUserResponse,
  InitOptions,
  NewUserExperienceResponse,
  ReferralSummary,
  ReferloopEvent,
  ReferloopEvents,
  TrackReferralResponse,
} from "./types.ts";
import type { Emit, Widget, WidgetConfig } from "./ui/index.ts";

type Handler<E extends ReferloopEvent> = (detail: ReferloopEvents[E]) => void;

export type Referloop = {
  init(options: InitOptions): void;
  identify(options: IdentifyOptions): void;
  getReferralLink(): string | null;
  open(): void;
  close(): void;
  on<E extends ReferloopEvent>(event: E, handler: Handler<E>): () => void;
};

const DISMISSED = "referloop.dismissed.";
const PARAMS = ["referralCode", "rewardEventName"];

/** The UI chunk, loaded only when something must be drawn. */
export type LoadUi = () => Promise<typeof import("./ui/index.ts")>;

/**
 * `loadUi`: how the UI chunk is fetched (the hosted script: beside itself; the npm package: the
 * bundler's own chunk). `defaultApiBaseUrl`: the API when init names none (the hosted script's origin).
 * Creating one touches nothing: the page is read and written from init on.
 */
export function createReferloop(loadUi: LoadUi, defaultApiBaseUrl?: string): Referloop {
  const handlers: { [event: string]: Set<(detail: never) => void> } = {};
  const warned = new Set<string>();
  let settings: Required<Pick<InitOptions, "key" | "apiBaseUrl">> & InitOptions;
  let attribution: Promise<unknown> = Promise.resolve();
  let identifying: Promise<unknown> = Promise.resolve();
  let identified = "";
  let user: InitAppUserResponse | undefined;
  let ui: Promise<Widget> | undefined;
  let view: WidgetConfig = {};
  let bannerCode = "";

  const warn = (error: unknown) => {
    const message = `[Referloop] ${error instanceof Error ? error.message : error}`;
    if (!warned.has(message)) console.warn(message);
    warned.add(message);
  };

  function emit<E extends ReferloopEvent>(event: E, detail: ReferloopEvents[E]) {
    handlers[event]?.forEach((handler) => {
      try {
        handler(detail as never);
      } catch (error) {
        console.error("[Referloop] an event handler threw:", error);
      }
    });
  }

  const call = <T>(endpoint: string, body: object) => post<T>(settings.apiBaseUrl, settings.key, endpoint, body);

  const onUi: Emit = (event, detail) => {
    if (event !== "dismiss") return emit(event, detail as never);
    try {
      localStorage.setItem(DISMISSED + bannerCode, "1");
    } catch {
      // Storage blocked: dismissed for this page view only.
    }
    draw({ banner: null });
  };

  /** Loads the UI once and draws `patch` merged into what is shown. */
  function draw(patch: WidgetConfig): Promise<Widget> {
    view = { ...view, ...patch };
    // An async script can run before <body> exists: the widget's element waits for it.
    const body = () => new Promise((ready) => (document.body ? ready(0) : addEventListener("DOMContentLoaded", ready, { once: true })));
    ui ??= Promise.all([loadUi(), body()]).then(
      ([chunk]) => chunk.mount(document.body.appendChild(document.createElement("referloop-widget")), onUi),
      (error) => {
        ui = undefined;
        throw new Error(`the widget UI could not be loaded (${error})`);
      },
    );
    return ui.then((widget) => (widget.set(view), widget));
  }

  async function banner(code: string) {
    try {
      if (localStorage.getItem(DISMISSED + code)) return;
    } catch {
      // Storage blocked: nothing was stored either.
    }
    const { newUserExperience, referrerName } = await call<NewUserExperienceResponse>("new-user-experience", { referralCode: code });
    bannerCode = code;
    if (newUserExperience.promoText.trim()) await draw({ banner: { ...newUserExperience, referrerName } });
  }

  /** A referral link arrival: cookies, track-referral once per code, clean address bar, banner. */
  async function attribute() {
    const url = new URL(location.href);
    const [code, rewardEventName] = PARAMS.map((name) => url.searchParams.get(name));
    if (!code) return;
    PARAMS.forEach((name) => url.searchParams.delete(name));
    try {
      history.replaceState(history.state, "", url.href);
    } catch {
      // A sandboxed frame may refuse: the address bar keeps the code, attribution goes on.
    }
    banner(code).catch(warn);
    const domain = settings.cookieDomain;
    // Done before for this code (a reload, a second visit): the stored tracking id says so.
    if (readCookie(REF_CODE_COOKIE) === code && readCookie(TRACKED_REFERRAL_COOKIE)) return;
    writeCookie(REF_CODE_COOKIE, code, domain);
    writeCookie(TRACKED_REFERRAL_COOKIE, "", domain, 0);
    try {
      const { referralTrackingId } = await call<TrackReferralResponse>("track-referral", rewardEventName ? { referralCode: code, rewardEventName } : { referralCode: code });
      writeCookie(TRACKED_REFERRAL_COOKIE, referralTrackingId, domain);
      emit("referral_tracked", { referralCode: code, referralTrackingId });
    } catch (error) {
      // An unknown code binds nobody later either; any other failure keeps the code for init-app-user.
      if (error instanceof ApiError && error.status === 404) writeCookie(REF_CODE_COOKIE, "", domain, 0);
      throw error;
    }
  }

  async function identify(options: IdentifyOptions) {
    await attribution;
    const trackingId = readCookie(TRACKED_REFERRAL_COOKIE);
    const code = readCookie(REF_CODE_COOKIE);
    const body = { ...options, ...(trackingId ? { referralTrackingId: trackingId } : code ? { referralCode: code } : {}) };
    user = await call<InitAppUserResponse>("init-app-user", body);
    const { referralCode, referralLink, referrerExperience } = user;
    emit("ready", { referralCode, referralLink });
    // "Your referrals" only for a verified user: a publishable call without userHash gets nothing.
    const summary = options.userHash ? (page: number) => call<ReferralSummary>("referral-summary", { userId: options.userId, userHash: options.userHash, page }) : null;
    const shown = { referrer: referrerExperience, link: referralLink ?? referralCode, summary };
    if (ui || referrerExperience.triggerButton.buttonType !== "none") await draw(shown);
    else view = { ...view, ...shown };
  }

  const api: Referloop = {
    init(options) {
      if (settings) return;
      if (!options?.key) return warn("init needs the project's publishable key (pk_...)");
      const apiBaseUrl = options.apiBaseUrl ?? defaultApiBaseUrl;
      if (!apiBaseUrl) return warn("init needs apiBaseUrl, the Referloop app's origin");
      settings = { ...options, apiBaseUrl: apiBaseUrl.replace(/\/+$/, "") };
      attribution = attribute().catch(warn);
    },
    identify(options) {
      if (!settings) return warn("identify needs init first: data-key on the script tag, or Referloop.init");
      if (!options?.userId) return warn("identify needs a userId");
      const id = JSON.stringify(options);
      if (id === identified) return;
      identified = id;
      identifying = identify(options).catch((error) => {
        identified = "";
        warn(error);
      });
    },
    getReferralLink: () => user?.referralLink ?? null,
    open() {
      identifying.then(() => (user ? draw({}).then((widget) => widget.open()) : warn("open needs an identified user: call identify first"))).catch(warn);
    },
    close() {
      ui?.then((widget) => widget.close()).catch(warn);
    },
    on(event, handler) {
      const set = (handlers[event] ??= new Set());
      set.add(handler);
      // Registered late: `ready` already happened, tell this handler too.
      if (event === "ready" && user) (handler as Handler<"ready">)({ referralCode: user.referralCode, referralLink: user.referralLink });
      return () => void set.delete(handler);
    },
  };
  // Whatever a caller passes, nothing throws into the page.
  for (const [name, method] of Object.entries(api)) {
    (api as Record<string, unknown>)[name] = (...args: unknown[]) => {
      try {
        return (method as (...a: unknown[]) => unknown)(...args);
      } catch (error) {
        warn(error);
      }
    };
  }
  return api;
}
