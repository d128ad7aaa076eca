/*
 * The widget's UI: trigger button, sharing UI (modal or drawer) and new-user banner, drawn in a shadow
 * root. Loaded on demand by the loader (a separate chunk), and imported by the dashboard's campaign
 * preview through render(). No network calls here: everything it draws is handed to it.
 */
import type { NewUserExperience, ReferralSummary, ReferrerExperience, ShareChannel } from "../types.ts";
import { readableTextOn, usableColor, withAlpha } from "./colors.ts";
import { h, icon } from "./dom.ts";
import { drawReferrals, type LoadSummary } from "./referrals.ts";
import { NATIVE_SHARE_ICON, SHARE_TARGETS } from "./share.ts";
import { CSS } from "./styles.ts";

export type Banner = NewUserExperience & { referrerName?: string | null };

export type WidgetConfig = {
  /** The identified user's campaign settings: with it the trigger button and sharing UI exist. */
  referrer?: ReferrerExperience | null;
  /** What the sharing UI shows and shares: the referral link (or the code when there is no link). */
  link?: string | null;
  /** The new-user banner; none when absent or its promoText is empty. */
  banner?: Banner | null;
  /** The identified user's referral summary, a page at a time: with it the sheet offers "Your referrals". */
  summary?: LoadSummary | null;
};

export type WidgetEvent = "open" | "close" | "share" | "dismiss";
export type Emit = (event: WidgetEvent, detail?: { channel: ShareChannel }) => void;
export type Widget = { set(config: WidgetConfig): void; open(): void; close(): void; referrals(): void };

const FOCUSABLE = "a[href],button,input";

/** The element that really has focus, looking into shadow roots. */
function deepActive(): HTMLElement | null {
  let el = document.activeElement;
  while (el?.shadowRoot?.activeElement) el = el.shadowRoot.activeElement;
  return el as HTMLElement | null;
}

/**
 * The widget's stylesheet. A constructed sheet is not an inline style, so host pages (and the dashboard)
 * with a strict CSP apply it; a <style> element only where constructed sheets are missing.
 */
function styleNodes(shadow: ShadowRoot): Node[] {
  if ("adoptedStyleSheets" in shadow && "replaceSync" in CSSStyleSheet.prototype) {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    shadow.adoptedStyleSheets = [sheet];
    return [];
  }
  return [h("style", {}, CSS)];
}

/**
 * Draws the widget into `host`'s shadow root. `preview` lays it out inside the host instead of the
 * viewport and leaves focus alone (the campaign editor keeps its own).
 */
export function mount(host: HTMLElement, emit: Emit = () => {}, preview = false): Widget {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: "open" });
  const frame = h("div", { class: "r" });
  shadow.replaceChildren(...styleNodes(shadow), frame);
  if (preview) host.setAttribute("data-preview", "");

  let config: WidgetConfig = {};
  let isOpen = false;
  let trigger: HTMLElement | null = null;
  let sheet: HTMLElement | null = null;
  let opener: HTMLElement | null = null;

  function draw() {
    const { referrer, banner } = config;
    const theme = referrer?.theme;
    const c = usableColor(theme?.themeColor, "#4F46E5");
    const bg = usableColor(theme?.backgroundColor, "#FFFFFF");
    const fg = readableTextOn(bg);
    // Through the CSSOM, not a style attribute: a page whose CSP refuses inline styles still themes it.
    const vars = {
      "--c": c,
      "--cf": readableTextOn(c),
      "--bg": bg,
      "--fg": fg,
      "--ln": withAlpha(fg, 0.14),
      "--t": withAlpha(usableColor(theme?.tintColor, "#000000"), theme?.tintAlpha ?? 0.4),
    };
    for (const [name, value] of Object.entries(vars)) frame.style.setProperty(name, value);
    const button = referrer?.triggerButton;
    trigger =
      button && button.buttonType !== "none"
        ? h(
            "button",
            {
              class: `f b ${button.buttonType === "edge" ? "e" : "fl"} ${button.buttonPosition}`,
              type: "button",
              "aria-haspopup": "dialog",
              "aria-expanded": String(isOpen),
              onclick: () => show(trigger),
            },
            "Invite friends",
          )
        : null;
    // A floating button on the banner's side: the banner moves clear of it.
    const lift = button?.buttonType === "floating" && banner?.promoPosition.split("-")[0] === button.buttonPosition.split("-")[0];
    frame.replaceChildren(...([trigger, banner?.promoText.trim() && drawBanner(banner, lift)].filter(Boolean) as Node[]));
    sheet = null;
    if (isOpen) drawSheet();
  }

  function drawBanner(banner: Banner, lift: boolean) {
    return h(
      "div",
      { class: `f bn ${banner.promoPosition}${lift ? " lift" : ""}`, role: "region", "aria-label": "Invitation" },
      h("p", {}, banner.referrerName && h("strong", {}, `${banner.referrerName} invited you`), banner.promoText),
      h("button", { type: "button", "aria-label": "Dismiss", onclick: () => emit("dismiss") }, "×"),
    );
  }

  function drawSheet() {
    const modal = config.referrer!.modal;
    const link = config.link ?? "";
    const status = h("p", { class: "st", role: "status" });
    const field = h("input", { readonly: true, value: link, "aria-label": "Your referral link" });
    const copy = h("button", { class: "cp", type: "button" }, "Copy link");
    copy.onclick = async () => {
      let copied = false;
      try {
        await navigator.clipboard.writeText(link);
        copied = true;
      } catch {
        // No async clipboard (insecure page, refused permission): the old command still works here.
        field.select();
        copied = document.execCommand("copy");
      }
      status.textContent = copied ? "Link copied to the clipboard." : "Select the link and copy it.";
      if (!copied) return;
      copy.textContent = "Copied!";
      setTimeout(() => (copy.textContent = "Copy link"), 2000);
      emit("share", { channel: "copy" });
    };
    const shares = SHARE_TARGETS.map(({ channel, label, d, url }) =>
      h(
        "li",
        {},
        h(
          "a",
          {
            href: url(link),
            ...(channel === "email" ? {} : { target: "_blank", rel: "noopener noreferrer" }),
            "aria-label": channel === "email" ? "Share by e-mail" : `Share on ${label}`,
            onclick: () => emit("share", { channel }),
          },
          h("span", {}, icon(d)),
          label,
        ),
      ),
    );
    if ("share" in navigator) {
      const native = () =>
        navigator.share({ title: modal.modalTitle, url: link }).then(
          () => emit("share", { channel: "native" }),
          () => {}, // dismissed by the user
        );
      shares.push(h("li", {}, h("button", { type: "button", onclick: native }, h("span", {}, icon(NATIVE_SHARE_ICON)), "More…")));
    }
    const drawer = modal.componentType === "drawer";
    sheet = h(
      "div",
      { class: `f o${drawer ? " dr" : ""}` },
      h("div", { class: "bd", onclick: () => api.close() }),
      h(
        "div",
        { class: "d", role: "dialog", "aria-modal": "true", "aria-labelledby": "rt", "aria-describedby": "rd" },
        drawer && h("div", { class: "hd" }),
        h("h2", { id: "rt" }, modal.modalTitle),
        h("p", { id: "rd", class: "ds" }, modal.modalDescription),
        h("div", { class: "lk" }, field, copy),
        status,
        h("ul", { "aria-label": "Share" }, ...shares),
        config.summary && h("button", { class: "cp", type: "button", onclick: () => referrals() }, "Your referrals"),
        h("button", { class: "x", type: "button", "aria-label": "Close", onclick: () => api.close() }, "×"),
      ),
    );
    frame.append(sheet);
    return copy;
  }

  /** Swaps the dialog's content for the "Your referrals" view; its Back button swaps it back. */
  function referrals() {
    const dialog = sheet?.querySelector<HTMLElement>(".d");
    if (!dialog || !config.summary) return;
    const close = dialog.querySelector(".x")!;
    const box = h("div", { "aria-live": "polite" });
    dialog.replaceChildren(box, close);
    dialog.removeAttribute("aria-describedby");
    drawReferrals(box, config.summary, () => {
      sheet?.remove();
      const copy = drawSheet();
      if (!preview) copy.focus();
    }).focus();
  }

  /** Esc closes; Tab and Shift+Tab cycle inside the dialog (the page behind is out of reach). */
  function onKey(event: KeyboardEvent) {
    if (event.key === "Escape") return api.close();
    if (event.key !== "Tab" || !sheet) return;
    const items = [...sheet.querySelectorAll<HTMLElement>(FOCUSABLE)];
    const first = items[0];
    const last = items[items.length - 1];
    const active = deepActive();
    const inside = !!active && sheet.contains(active);
    if (!inside || (event.shiftKey ? active === first : active === last)) {
      event.preventDefault();
      (event.shiftKey ? last : first)?.focus();
    }
  }

  function show(from: HTMLElement | null) {
    if (isOpen || !config.referrer) return;
    isOpen = true;
    trigger?.setAttribute("aria-expanded", "true");
    opener = from;
    const copy = drawSheet();
    if (!preview) {
      copy.focus();
      document.addEventListener("keydown", onKey, true);
    }
    emit("open");
  }

  const api: Widget = {
    set(next) {
      if (!next.referrer) api.close();
      config = next;
      draw();
    },
    open: () => show(deepActive()),
    referrals: () => referrals(),
    close() {
      if (!isOpen) return;
      isOpen = false;
      trigger?.setAttribute("aria-expanded", "false");
      sheet?.remove();
      sheet = null;
      document.removeEventListener("keydown", onKey, true);
      // Back to whatever opened it; the trigger when that was redrawn meanwhile.
      if (!preview) (opener?.isConnected ? opener : trigger)?.focus();
      emit("close");
    },
  };
  return api;
}

export type PreviewState = "button" | "open" | "banner" | "referrals";

export type PreviewInput = {
  referrerExperience: ReferrerExperience;
  newUserExperience: NewUserExperience;
  /** Sample values: the preview has no real user. */
  referralLink?: string;
  referrerName?: string | null;
  /** Sample data for the "Your referrals" view (state "referrals"). */
  summary?: ReferralSummary;
};

const previews = new WeakMap<HTMLElement, Widget>();

/**
 * The campaign editor's preview: draws the widget as a page would show it in `state`, inside
 * `element` (which should be `position: relative`). Call again with new values to update in place.
 */
export function render(element: HTMLElement, input: PreviewInput, state: PreviewState): void {
  let widget = previews.get(element);
  if (!widget) previews.set(element, (widget = mount(element, undefined, true)));
  widget.close();
  widget.set({
    referrer: state === "banner" ? null : input.referrerExperience,
    link: input.referralLink ?? "https://your-site.example/join?referralCode=AbC123",
    banner: state === "banner" ? { ...input.newUserExperience, referrerName: input.referrerName } : null,
    summary: input.summary ? () => Promise.resolve(input.summary!) : null,
  });
  if (state === "open" || state === "referrals") widget.open();
  if (state === "referrals") widget.referrals();
}
