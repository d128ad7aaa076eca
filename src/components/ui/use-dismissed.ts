"use client";

import { useSyncExternalStore } from "react";

const subscribe = (onChange: () => void) => {
  window.addEventListener("storage", onChange);
  return () => window.removeEventListener("storage", onChange);
};

/**
 * Whether a piece of guidance (a checklist, a banner) was dismissed in this browser, and the way to
 * dismiss it. It is guidance, not data, so it lives in localStorage under `key`; a storage event keeps
 * tabs in step. On the server and before hydration it counts as dismissed, so nothing flashes for
 * those who closed it.
 */
export function useDismissed(key: string): [boolean, () => void] {
  const storageKey = `referloop:dismissed:${key}`;
  const dismissed = useSyncExternalStore(subscribe, () => localStorage.getItem(storageKey) === "1", () => true);
  return [
    dismissed,
    () => {
      localStorage.setItem(storageKey, "1");
      window.dispatchEvent(new StorageEvent("storage", { key: storageKey }));
    },
  ];
}
