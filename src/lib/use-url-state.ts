"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

export type UrlStatePatch<K extends string> = Partial<Record<K, string | number | null>>;

/**
 * A list's state (page, sort, filters) kept in the query string, so a reload or a shared link shows
 * the same view. `defaults` must be a module-level constant; values equal to their default are left
 * out of the URL. Writes go through the History API, which Next.js syncs with `useSearchParams`
 * without a server round trip. Values are strings: parse and validate them where they are used.
 */
export function useUrlState<K extends string>(defaults: Readonly<Record<K, string>>) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const values = useMemo(() => {
    const read: Record<K, string> = { ...defaults };
    for (const key of Object.keys(defaults) as K[]) read[key] = searchParams.get(key) ?? defaults[key];
    return read;
  }, [searchParams, defaults]);

  const update = useCallback(
    (patch: UrlStatePatch<K>, mode: "push" | "replace" = "push") => {
      const params = new URLSearchParams(window.location.search);
      for (const [key, raw] of Object.entries(patch) as [K, string | number | null | undefined][]) {
        const value = raw === null || raw === undefined ? "" : String(raw);
        if (value === "" || value === defaults[key]) params.delete(key);
        else params.set(key, value);
      }
      const query = params.toString();
      const url = query ? `${pathname}?${query}` : pathname;
      if (mode === "push") window.history.pushState(null, "", url);
      else window.history.replaceState(null, "", url);
    },
    [pathname, defaults],
  );

  return [values, update] as const;
}

/** A positive integer from the URL, or the fallback when it is missing or malformed. */
export function positiveInt(value: string, fallback: number, max = Number.MAX_SAFE_INTEGER): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isSafeInteger(parsed) && parsed >= 1 && parsed <= max ? parsed : fallback;
}

/** One of `allowed`, or the fallback: a hand-edited URL never turns into a 400. */
export function oneOf<T extends string>(value: string, allowed: readonly T[], fallback: T): T {
  return (allowed as readonly string[]).includes(value) ? (value as T) : fallback;
}

/**
 * A list kept in one query value: each item URL-encoded and the items joined by commas, so an item
 * may hold a comma. Reading drops empty, undecodable and repeated items and keeps the first `max`.
 */
export function readList(value: string, max: number): string[] {
  const items = new Set<string>();
  for (const part of value ? value.split(",") : []) {
    try {
      const item = decodeURIComponent(part);
      if (item) items.add(item);
    } catch {
      // A hand-edited URL with a broken escape: that item alone is dropped.
    }
  }
  return [...items].slice(0, max);
}

export const writeList = (items: readonly string[]) => items.map(encodeURIComponent).join(",");
