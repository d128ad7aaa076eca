"use client";

import { ATTRIBUTE_KEY_MAX_LENGTH, ATTRIBUTE_VALUE_MAX_LENGTH } from "@/lib/schemas/app-users";
import { Button } from "./button";
import { inputClasses } from "./form-field";

export type KeyValueRow = { id: number; key: string; value: string };

let nextRowId = 1;
export const newRow = (key = "", value = ""): KeyValueRow => ({ id: nextRowId++, key, value });

export const rowsFromRecord = (record: Record<string, string>): KeyValueRow[] =>
  Object.entries(record).map(([key, value]) => newRow(key, value));

/** The map the rows describe, or the reason they do not describe one. Rows left fully blank are ignored. */
export function recordFromRows(rows: readonly KeyValueRow[], noun = "Attribute"): { record: Record<string, string> } | { error: string } {
  const record: Record<string, string> = {};
  for (const [index, row] of rows.entries()) {
    const key = row.key.trim();
    if (!key && !row.value) continue;
    if (!key) return { error: `${noun} ${index + 1} needs a name.` };
    if (Object.hasOwn(record, key)) return { error: `${noun} “${key}” appears twice.` };
    record[key] = row.value;
  }
  return { record };
}

type KeyValueEditorProps = {
  /** Singular noun for the rows' labels ("Attribute"). */
  noun?: string;
  rows: readonly KeyValueRow[];
  onChange: (rows: KeyValueRow[]) => void;
  disabled?: boolean;
};

/** Editable name/value rows for a string-to-string map. */
export function KeyValueEditor({ noun = "Attribute", rows, onChange, disabled }: KeyValueEditorProps) {
  const edit = (id: number, patch: Partial<KeyValueRow>) => onChange(rows.map((row) => (row.id === id ? { ...row, ...patch } : row)));
  return (
    <div className="space-y-2">
      {rows.length === 0 && <p className="text-sm text-zinc-500">No {noun.toLowerCase()}s.</p>}
      {rows.map((row, index) => (
        <div key={row.id} className="flex items-center gap-2">
          <input
            aria-label={`${noun} ${index + 1} name`}
            placeholder="name"
            value={row.key}
            disabled={disabled}
            maxLength={ATTRIBUTE_KEY_MAX_LENGTH}
            onChange={(e) => edit(row.id, { key: e.target.value })}
            className={`${inputClasses} max-w-56 font-mono`}
          />
          <input
            aria-label={`${noun} ${index + 1} value`}
            placeholder="value"
            value={row.value}
            disabled={disabled}
            maxLength={ATTRIBUTE_VALUE_MAX_LENGTH}
            onChange={(e) => edit(row.id, { value: e.target.value })}
            className={inputClasses}
          />
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove ${noun.toLowerCase()} ${index + 1}`}
            disabled={disabled}
            onClick={() => onChange(rows.filter((r) => r.id !== row.id))}
          >
            ✕
          </Button>
        </div>
      ))}
      <Button variant="secondary" size="sm" disabled={disabled} onClick={() => onChange([...rows, newRow()])}>
        Add {noun.toLowerCase()}
      </Button>
    </div>
  );
}
