"use client";

import { useEffect, useRef, useState, type ReactNode } from "react";
import { SegmentedControl } from "@/components/ui/segmented-control";
import { render, type PreviewState } from "../../../packages/js/src/ui/index";
import type { RouterOutputs } from "@/lib/trpc-types";

type Campaign = RouterOutputs["campaigns"]["get"];
export type ReferrerExperience = Campaign["referrerExperience"];
export type NewUserExperience = Campaign["newUserExperience"];

type Device = "desktop" | "phone";
const DEVICES = [
  { value: "desktop", label: "Desktop" },
  { value: "phone", label: "Phone (390 px)" },
] as const;

/** Stand-ins for the client's page: a header, a heading, a few grey lines. */
function MockPage({ phone }: { phone: boolean }) {
  return (
    <div aria-hidden className="absolute inset-0 overflow-hidden bg-white">
      <div className="flex h-12 items-center justify-between border-b border-zinc-100 px-4">
        <div className="h-4 w-20 rounded bg-zinc-300" />
        <div className="flex gap-3">
          {(phone ? [1] : [1, 2, 3]).map((n) => (
            <div key={n} className="h-2.5 w-12 rounded bg-zinc-200" />
          ))}
        </div>
      </div>
      <div className="space-y-3 p-6">
        <div className="h-6 w-2/3 rounded bg-zinc-200" />
        <div className="h-3 w-5/6 rounded bg-zinc-100" />
        <div className="h-3 w-4/6 rounded bg-zinc-100" />
        <div className={`grid gap-3 pt-3 ${phone ? "grid-cols-1" : "grid-cols-3"}`}>
          {[1, 2, 3].map((n) => (
            <div key={n} className="h-28 rounded-md bg-zinc-100" />
          ))}
        </div>
        <div className="h-3 w-3/4 rounded bg-zinc-100" />
        <div className="h-3 w-1/2 rounded bg-zinc-100" />
      </div>
    </div>
  );
}

function Note({ children }: { children: ReactNode }) {
  return <p className="absolute inset-x-6 top-1/2 -translate-y-1/2 rounded-md bg-zinc-900/80 px-3 py-2 text-center text-sm text-on-accent">{children}</p>;
}

/**
 * The real widget (its own UI code, packages/js/src/ui) drawn full size on a mock page, in a desktop or a
 * 390 px phone frame, in the state chosen: trigger button, open sharing UI, or new-user banner.
 */
export function CampaignPreview({ referrer, newUser }: { referrer: ReferrerExperience; newUser: NewUserExperience }) {
  const [state, setState] = useState<PreviewState>("button");
  const [device, setDevice] = useState<Device>("desktop");
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (host.current) render(host.current, { referrerExperience: referrer, newUserExperience: newUser, referrerName: "Ada" }, state);
  }, [referrer, newUser, state]);

  const phone = device === "phone";
  const states = [
    { value: "button", label: "Button" },
    { value: "open", label: referrer.modal.componentType === "drawer" ? "Open drawer" : "Open modal" },
    { value: "banner", label: "New-user banner" },
  ] as const;
  const empty =
    state === "button" && referrer.triggerButton.buttonType === "none"
      ? "No button: your app opens the sharing UI with Referloop.open()."
      : state === "banner" && !newUser.promoText.trim()
        ? "No promo text: no banner is shown."
        : null;

  return (
    <div className="space-y-3">
      <div className="flex flex-wrap gap-2">
        <SegmentedControl label="Preview state" options={states} value={state} onChange={setState} />
        <SegmentedControl label="Preview device" options={DEVICES} value={device} onChange={setDevice} />
      </div>
      <figure className={phone ? "mx-auto w-[406px] max-w-full rounded-[2rem] border-8 border-zinc-800 bg-zinc-800 shadow-lg" : "rounded-lg border border-zinc-300 shadow-sm"}>
        {!phone && (
          <div aria-hidden className="flex items-center gap-2 rounded-t-lg border-b border-zinc-200 bg-zinc-100 px-3 py-2">
            <span className="size-2.5 rounded-full bg-zinc-300" />
            <span className="size-2.5 rounded-full bg-zinc-300" />
            <span className="size-2.5 rounded-full bg-zinc-300" />
            <span className="ml-2 flex-1 truncate rounded bg-white px-2 py-0.5 text-xs text-zinc-500">your-site.example</span>
          </div>
        )}
        {/* The page and the widget on it; inert: a picture of the widget, not a second one to tab through. */}
        <div className={`relative overflow-hidden ${phone ? "h-[680px] w-full rounded-[1.5rem]" : "h-[560px] rounded-b-lg"}`} data-testid="widget-preview">
          <MockPage phone={phone} />
          <div ref={host} inert className="absolute inset-0" />
          {empty && <Note>{empty}</Note>}
        </div>
        <figcaption className="sr-only">{`Widget preview on a ${phone ? "390 px phone" : "desktop"} page`}</figcaption>
      </figure>
    </div>
  );
}
