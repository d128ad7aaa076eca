import type { ReactNode } from "react";
import type { RouterOutputs } from "@/lib/trpc-types";
import { readableTextOn, usableColor, withAlpha } from "./colors";

type Campaign = RouterOutputs["campaigns"]["get"];
export type ReferrerExperience = Campaign["referrerExperience"];
export type NewUserExperience = Campaign["newUserExperience"];

const CORNER: Record<ReferrerExperience["triggerButton"]["buttonPosition"], string> = {
  "bottom-right": "bottom-3 right-3",
  "bottom-left": "bottom-3 left-3",
  "top-right": "top-3 right-3",
  "top-left": "top-3 left-3",
};

const EDGE: Record<ReferrerExperience["triggerButton"]["buttonPosition"], string> = {
  "bottom-right": "bottom-6 right-0 rounded-l-md",
  "bottom-left": "bottom-6 left-0 rounded-r-md",
  "top-right": "top-6 right-0 rounded-l-md",
  "top-left": "top-6 left-0 rounded-r-md",
};

const BANNER: Record<NewUserExperience["promoPosition"], string> = {
  "top-left": "top-2 left-2",
  "top-center": "top-2 left-1/2 -translate-x-1/2",
  "top-right": "top-2 right-2",
  "bottom-left": "bottom-2 left-2",
  "bottom-center": "bottom-2 left-1/2 -translate-x-1/2",
  "bottom-right": "bottom-2 right-2",
};

/** A stand-in for the client's page: a few grey lines. */
function Frame({ title, children }: { title: string; children: ReactNode }) {
  return (
    <figure className="min-w-0">
      <div className="relative h-48 overflow-hidden rounded-md border border-zinc-200 bg-white lg:h-40" aria-hidden>
        <div className="space-y-2 p-4">
          <div className="h-3 w-1/3 rounded bg-zinc-200" />
          <div className="h-2 w-5/6 rounded bg-zinc-100" />
          <div className="h-2 w-4/6 rounded bg-zinc-100" />
          <div className="h-2 w-3/4 rounded bg-zinc-100" />
          <div className="h-16 w-full rounded bg-zinc-50" />
        </div>
        {children}
      </div>
      <figcaption className="mt-1.5 text-xs text-zinc-500">{title}</figcaption>
    </figure>
  );
}

function TriggerButton({ referrer }: { referrer: ReferrerExperience }) {
  const { buttonType, buttonPosition } = referrer.triggerButton;
  const color = usableColor(referrer.theme.themeColor, "#4F46E5");
  const style = { backgroundColor: color, color: readableTextOn(color) };
  if (buttonType === "none") {
    return <p className="absolute inset-x-4 bottom-4 text-center text-xs text-zinc-500">No button: your app opens the sharing UI itself.</p>;
  }
  if (buttonType === "edge") {
    return (
      <span style={style} className={`absolute px-1.5 py-3 text-xs font-medium shadow [writing-mode:vertical-rl] ${EDGE[buttonPosition]}`}>
        Invite friends
      </span>
    );
  }
  return (
    <span style={style} className={`absolute rounded-full px-3.5 py-2 text-xs font-medium shadow-lg ${CORNER[buttonPosition]}`}>
      Invite friends
    </span>
  );
}

function SharingUi({ referrer }: { referrer: ReferrerExperience }) {
  const { theme, modal } = referrer;
  const background = usableColor(theme.backgroundColor, "#FFFFFF");
  const accent = usableColor(theme.themeColor, "#4F46E5");
  const tint = withAlpha(usableColor(theme.tintColor, "#000000"), theme.tintAlpha);
  const drawer = modal.componentType === "drawer";
  return (
    <div className="absolute inset-0" style={{ backgroundColor: tint }}>
      <div
        style={{ backgroundColor: background, color: readableTextOn(background) }}
        className={
          drawer
            ? "absolute inset-x-0 bottom-0 rounded-t-xl p-3 shadow-xl"
            : "absolute top-1/2 left-1/2 w-4/5 -translate-x-1/2 -translate-y-1/2 rounded-lg p-3 shadow-xl"
        }
      >
        {drawer && <div className="mx-auto mb-2 h-1 w-8 rounded-full bg-current opacity-20" />}
        <p className="truncate text-sm font-semibold">{modal.modalTitle || "Untitled"}</p>
        <p className="mt-1 line-clamp-3 text-[11px] leading-snug opacity-80">{modal.modalDescription}</p>
        <div className="mt-2 flex gap-1.5">
          <span className="flex-1 truncate rounded border border-current/20 px-1.5 py-1 font-mono text-[10px] opacity-70">
            https://…?referralCode=AB12CD
          </span>
          <span style={{ backgroundColor: accent, color: readableTextOn(accent) }} className="rounded px-2 py-1 text-[10px] font-medium">
            Copy
          </span>
        </div>
      </div>
    </div>
  );
}

function PromoBanner({ referrer, newUser }: { referrer: ReferrerExperience; newUser: NewUserExperience }) {
  if (!newUser.promoText.trim()) {
    return <p className="absolute inset-x-4 bottom-4 text-center text-xs text-zinc-500">No promo text: no banner is shown.</p>;
  }
  const color = usableColor(referrer.theme.themeColor, "#4F46E5");
  return (
    <div
      style={{ backgroundColor: color, color: readableTextOn(color) }}
      className={`absolute flex max-w-[85%] items-start gap-2 rounded-md px-2.5 py-1.5 text-[11px] leading-snug shadow-lg ${BANNER[newUser.promoPosition]}`}
    >
      <span className="line-clamp-3 min-w-0">{newUser.promoText}</span>
      <span className="opacity-70">✕</span>
    </div>
  );
}

/** Roughly what the widget shows with these settings; updates as you edit. */
export function CampaignPreview({ referrer, newUser }: { referrer: ReferrerExperience; newUser: NewUserExperience }) {
  return (
    <div className="grid gap-4 sm:grid-cols-3 lg:grid-cols-1">
      <Frame title="Referrer: trigger button">
        <TriggerButton referrer={referrer} />
      </Frame>
      <Frame title={`Referrer: sharing ${referrer.modal.componentType}`}>
        <SharingUi referrer={referrer} />
      </Frame>
      <Frame title="New user: promo banner">
        <PromoBanner referrer={referrer} newUser={newUser} />
      </Frame>
    </div>
  );
}
