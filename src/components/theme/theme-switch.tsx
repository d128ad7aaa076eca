"use client";

import { useEffect, useState, useSyncExternalStore } from "react";
import { applyTheme, readThemeChoice, saveThemeChoice, type ThemeChoice } from "./theme";

const OPTIONS: readonly { value: ThemeChoice; label: string }[] = [
  { value: "system", label: "System" },
  { value: "light", label: "Light" },
  { value: "dark", label: "Dark" },
];

const noSubscribe = () => () => {};

/** System, light or dark; remembered in this browser. "System" follows the setting as it changes. */
export function ThemeSwitch() {
  // The stored choice is known only in the browser: the server renders "system".
  const stored = useSyncExternalStore(noSubscribe, readThemeChoice, () => "system" as const);
  const [choice, setChoice] = useState<ThemeChoice | null>(null);
  const current = choice ?? stored;

  useEffect(() => {
    if (current !== "system") return;
    const query = window.matchMedia("(prefers-color-scheme: dark)");
    const follow = () => applyTheme("system");
    query.addEventListener("change", follow);
    return () => query.removeEventListener("change", follow);
  }, [current]);

  return (
    <div role="group" aria-label="Theme" className="inline-flex rounded-md border border-zinc-300 bg-white p-0.5">
      {OPTIONS.map((option) => {
        const active = option.value === current;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={active}
            onClick={() => {
              saveThemeChoice(option.value);
              setChoice(option.value);
            }}
            className={`rounded px-2 py-0.5 text-xs font-medium ${active ? "bg-brand-600 text-on-accent" : "text-zinc-700 hover:bg-zinc-100"}`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
