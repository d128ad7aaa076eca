"use client";

import type { ReactNode } from "react";
import { useTypingDraft } from "@/lib/use-typing-draft";
import { Button } from "./button";
import { FormField, inputClasses } from "./form-field";

/*
 * The one filter form of the dashboard's lists (referrals, reward events, activity, deliveries,
 * inbound events, the audit log): a search landmark of labelled fields in a grid, one column on a
 * phone. Each field writes its value through `onChange`, which the page keeps in the URL (useUrlState).
 */

type FilterBarProps = {
  /** Names the search landmark, e.g. "Filter referrals". */
  label: string;
  /** Grid columns from the small breakpoint up (literal Tailwind classes). */
  columns?: string;
  /** Shows a "Clear filters" button that calls it. */
  onClear?: () => void;
  children: ReactNode;
};

export function FilterBar({ label, columns = "sm:grid-cols-2 lg:grid-cols-4", onClear, children }: FilterBarProps) {
  return (
    <form role="search" aria-label={label} className={`grid items-start gap-4 ${columns}`} onSubmit={(e) => e.preventDefault()}>
      {children}
      {onClear && (
        <div className="self-end">
          <Button variant="ghost" size="sm" onClick={onClear}>
            Clear filters
          </Button>
        </div>
      )}
    </form>
  );
}

type TextFilterProps = {
  label: string;
  /** The value in force (the URL's). */
  value: string;
  /** Called with the trimmed text after a pause in typing ("replace": no history entry per pause), or at once on Enter or the button ("push"). */
  onChange: (value: string, mode: "push" | "replace") => void;
  hint?: ReactNode;
  placeholder?: string;
  maxLength?: number;
  /** Why a whole text cannot be sent yet (a half-typed address): shown, and the text is held back. */
  invalid?: (value: string) => string | undefined;
  /** A "Search" button next to the box, for terms that are pasted rather than typed (ids). */
  button?: boolean;
  className?: string;
};

/** A text field of the filter: a search box (role searchbox), applied after a pause in typing. */
export function TextFilter({ label, value, onChange, hint, placeholder, maxLength = 255, invalid, button, className }: TextFilterProps) {
  const why = (text: string) => (text && invalid ? invalid(text) : undefined);
  const { draft, paused, edit, flush } = useTypingDraft(
    value,
    (text, mode) => {
      if (why(text.trim())) return false;
      onChange(text.trim(), mode);
    },
    (a, b) => a.trim() === b.trim(),
  );
  const problem = why(paused.trim());
  return (
    <FormField label={label} hint={hint} error={problem} className={className}>
      {(p) => (
        <div className="flex gap-2">
          <input
            {...p}
            type="search"
            value={draft}
            maxLength={maxLength}
            spellCheck={false}
            placeholder={placeholder}
            onChange={(e) => edit(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter") flush();
            }}
            className={inputClasses}
          />
          {button && (
            <Button onClick={() => flush()}>
              Search
            </Button>
          )}
        </div>
      )}
    </FormField>
  );
}

type SelectFilterProps<T extends string> = {
  label: string;
  value: T | "";
  options: readonly T[] | readonly { value: T; label: string }[];
  /** The first option, which filters nothing ("All statuses"). */
  allLabel: string;
  onChange: (value: T | "") => void;
};

/** A choice among known values, or all of them. */
export function SelectFilter<T extends string>({ label, value, options, allLabel, onChange }: SelectFilterProps<T>) {
  const choices = options.map((o) => (typeof o === "string" ? { value: o, label: o } : o));
  return (
    <FormField label={label}>
      {(p) => (
        <select {...p} value={value} onChange={(e) => onChange(e.target.value as T | "")} className={inputClasses}>
          <option value="">{allLabel}</option>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      )}
    </FormField>
  );
}

/** "day": date inputs, `to` inclusive (the whole day); "minute": date-and-time inputs, `to` exclusive. */
export type RangePrecision = "day" | "minute";

const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** A day (`YYYY-MM-DD`) or a local date-time from an input as an instant in the user's time zone; a day's end is the next day's start. */
function instantOf(local: string, precision: RangePrecision, end: boolean): Date | undefined {
  if (precision === "day" && !DAY.test(local)) return undefined;
  const at = local ? new Date(precision === "day" ? `${local}T00:00:00` : local) : undefined;
  if (!at || Number.isNaN(at.getTime())) return undefined;
  if (precision === "day" && end) at.setDate(at.getDate() + 1);
  return at;
}

/** The range's instants for the API (`from` inclusive, `to` exclusive); none of a range that ends before it starts (the field says so). */
export function rangeFilter(from: string, to: string, precision: RangePrecision = "day"): { from?: string; to?: string } {
  const start = instantOf(from, precision, false);
  const end = instantOf(to, precision, true);
  if (start && end && start >= end) return {};
  return { ...(start ? { from: start.toISOString() } : {}), ...(end ? { to: end.toISOString() } : {}) };
}

type DateRangeFilterProps = {
  from: string;
  to: string;
  onChange: (patch: { from?: string; to?: string }) => void;
  precision?: RangePrecision;
};

/** From and To, in the user's time zone. */
export function DateRangeFilter({ from, to, onChange, precision = "day" }: DateRangeFilterProps) {
  const start = instantOf(from, precision, false);
  const end = instantOf(to, precision, true);
  const backwards = start && end && start >= end ? (precision === "day" ? "must be on or before To" : "must be before To") : undefined;
  const type = precision === "day" ? "date" : "datetime-local";
  return (
    <>
      <FormField label="From" error={backwards}>
        {(p) => <input {...p} type={type} value={from} onChange={(e) => onChange({ from: e.target.value })} className={inputClasses} />}
      </FormField>
      <FormField label="To" hint={precision === "day" ? "Inclusive." : undefined}>
        {(p) => <input {...p} type={type} value={to} onChange={(e) => onChange({ to: e.target.value })} className={inputClasses} />}
      </FormField>
    </>
  );
}
