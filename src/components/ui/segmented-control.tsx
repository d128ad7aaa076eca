"use client";

type Option<T extends string> = { value: T; label: string };

/** A small set of mutually exclusive filters, e.g. All / Pending / Completed / Failed. */
export function SegmentedControl<T extends string>({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly Option<T>[];
  value: T;
  onChange: (value: T) => void;
}) {
  return (
    <div role="group" aria-label={label} className="inline-flex rounded-md border border-zinc-300 bg-white p-0.5 shadow-sm">
      {options.map((option) => {
        const active = option.value === value;
        return (
          <button
            key={option.value}
            type="button"
            aria-pressed={active}
            onClick={() => onChange(option.value)}
            className={`rounded px-3 py-1 text-sm font-medium ${active ? "bg-brand-600 text-on-accent" : "text-zinc-700 hover:bg-zinc-100"}`}
          >
            {option.label}
          </button>
        );
      })}
    </div>
  );
}
