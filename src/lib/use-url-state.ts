"use client";

import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useEffect, useRef, useState } from "react";

export type UrlStatePatch<K extends string> = Partial<Record<K, string | number | null>>;

const read = <K extends string>(params: Pick<URLSearchParams, "get">, defaults: Readonly<Record<K, string>>) => {
  const values: Record<K, string> = { ...defaults };
  for (const key of Object.keys(defaults) as K[]) values[key] = params.get(key) ?? defaults[key];
  return values;
};

/** A query string in one spelling, whatever the order of its parameters. */
const canonical = (query: string) => [...new URLSearchParams(query)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join("&");

/**
 * A list's state (page, sort, filters) kept in the query string, so a reload or a shared link shows
 * the same view. `defaults` must be a module-level constant; values equal to their default are left
 * out of the URL. Values are strings: parse and validate them where they are used.
 *
 * The values are held here and written to the URL through the History API, which Next.js syncs with
 * `useSearchParams` in a transition. Each edit builds on the last one, not on the URL or the last
 * render: until Next.js has caught up, it can commit (and write back to the URL) an earlier edit's
 * state, so a quick third edit read from either would drop the second. The URL's values are taken
 * over when it moves by itself (Back, a link), not when it shows one of this hook's own writes.
 */
export function useUrlState<K extends string>(defaults: Readonly<Record<K, string>>) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const [values, setValues] = useState(() => read(searchParams, defaults));
  const latest = useRef(values);
  // This hook's writes that the URL has not shown yet, oldest first.
  const written = useRef<string[]>([]);

  useEffect(() => {
    const seen = written.current.indexOf(canonical(searchParams.toString()));
    if (seen >= 0) {
      written.current = written.current.slice(seen + 1);
      return;
    }
    written.current = [];
    latest.current = read(searchParams, defaults);
    setValues(latest.current);
  }, [searchParams, defaults]);
  useEffect(() => {
    // Back and Forward name an entry of their own, even one this hook wrote.
    const forget = () => (written.current = []);
    window.addEventListener("popstate", forget);
    return () => window.removeEventListener("popstate", forget);
  }, []);

  const update = useCallback(
    (patch: UrlStatePatch<K>, mode: "push" | "replace" = "push") => {
      const next = { ...latest.current };
      for (const [key, raw] of Object.entries(patch) as [K, string | number | null | undefined][]) {
        next[key] = raw === null || raw === undefined || raw === "" ? defaults[key] : String(raw);
      }
      latest.current = next;
      setValues(next);
      // Parameters of no key of this hook's are kept as the URL has them.
      const params = new URLSearchParams(window.location.search);
      for (const key of Object.keys(defaults) as K[]) {
        if (next[key] === defaults[key]) params.delete(key);
        else params.set(key, next[key]);
      }
      const query = params.toString();
      // Unchanged from the last write (or, with none pending, the URL): no history entry.
      if (canonical(query) === (written.current.at(-1) ?? canonical(window.location.search))) return;
      written.current.push(canonical(query));
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
