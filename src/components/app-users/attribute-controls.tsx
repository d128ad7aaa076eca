"use client";

import { useId, useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { inputClasses } from "@/components/ui/form-field";
import { ATTRIBUTE_KEY_MAX_LENGTH, ATTRIBUTE_VALUE_MAX_LENGTH, MAX_ATTRIBUTES } from "@/lib/schemas/app-users";
import { useTypingDraft } from "@/lib/use-typing-draft";

export type AttributeFilter = { key: string; value: string };

/** The project's known keys as a datalist: the inputs suggest them, and any other key may still be typed. */
export function AttributeKeyOptions({ id, keys }: { id: string; keys: readonly string[] }) {
  return (
    <datalist id={id}>
      {keys.map((key) => (
        <option key={key} value={key} />
      ))}
    </datalist>
  );
}

/**
 * The attribute filter: a key and the value it must hold exactly. Like the search box, the fields
 * follow the keyboard at once and report once typing pauses; the filter is on while both are filled.
 */
export function AttributeFilterFields({ filter, keysListId, onChange }: { filter: AttributeFilter; keysListId: string; onChange: (filter: AttributeFilter) => void }) {
  const id = useId();
  const { draft, edit } = useTypingDraft(filter, onChange, (a, b) => a.key === b.key && a.value === b.value);

  return (
    <div role="group" aria-label="Attribute filter" className="flex flex-wrap items-center gap-2">
      <label htmlFor={`${id}-key`} className="text-sm text-zinc-700">
        Filter by attribute
      </label>
      <input
        id={`${id}-key`}
        list={keysListId}
        value={draft.key}
        onChange={(e) => edit({ ...draft, key: e.target.value })}
        placeholder="key"
        maxLength={ATTRIBUTE_KEY_MAX_LENGTH}
        className={`${inputClasses} w-36`}
      />
      <span aria-hidden className="text-sm text-zinc-700">
        =
      </span>
      <input
        aria-label="Attribute value"
        value={draft.value}
        onChange={(e) => edit({ ...draft, value: e.target.value })}
        placeholder="exact value"
        maxLength={ATTRIBUTE_VALUE_MAX_LENGTH}
        className={`${inputClasses} w-36`}
      />
    </div>
  );
}

/** The attribute keys shown as the table's extra columns (and exported as such): add by key, remove each. */
export function AttributeColumnsPicker({ columns, keysListId, onChange }: { columns: readonly string[]; keysListId: string; onChange: (columns: string[]) => void }) {
  const id = useId();
  const [key, setKey] = useState("");
  const full = columns.length >= MAX_ATTRIBUTES;

  function add(e: FormEvent) {
    e.preventDefault();
    if (!key || full) return;
    if (!columns.includes(key)) onChange([...columns, key]);
    setKey("");
  }

  return (
    <div className="flex flex-wrap items-center gap-2">
      <form onSubmit={add} className="flex flex-wrap items-center gap-2">
        <label htmlFor={id} className="text-sm text-zinc-700">
          Attribute column
        </label>
        <input
          id={id}
          list={keysListId}
          value={key}
          onChange={(e) => setKey(e.target.value)}
          placeholder="country"
          maxLength={ATTRIBUTE_KEY_MAX_LENGTH}
          className={`${inputClasses} w-36`}
        />
        <Button type="submit" variant="secondary" size="sm" disabled={!key || full} title={full ? `At most ${MAX_ATTRIBUTES} columns` : undefined}>
          Add column
        </Button>
      </form>
      {columns.length > 0 && (
        <ul aria-label="Attribute columns" className="flex flex-wrap gap-1.5">
          {columns.map((column) => (
            <li key={column} className="inline-flex max-w-48 items-center gap-1 rounded-full border border-zinc-300 bg-zinc-50 py-0.5 pr-1 pl-2.5 text-xs text-zinc-800">
              <span className="truncate" title={column}>
                {column}
              </span>
              <button
                type="button"
                aria-label={`Remove column ${column}`}
                onClick={() => onChange(columns.filter((c) => c !== column))}
                className="rounded-full px-1 text-zinc-500 hover:bg-zinc-200 hover:text-zinc-900 focus-visible:outline-2 focus-visible:outline-brand-500"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
