/** A changed field as the audit log keeps it: its values before and after, or for a secret only that it changed. */
export type FieldChange = { from: unknown; to: unknown } | { changed: true };

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value);

/**
 * What an update changed, field by field: nested objects are compared by dotted path
 * (`rewardRules.holdDays`), lists and other values whole. Paths in `secrets` (or below them) never
 * carry a value, only `{ changed: true }`, so the entry can be shown to anyone who reads the log.
 */
export function fieldChanges(before: unknown, after: unknown, secrets: readonly string[] = [], path = ""): Record<string, FieldChange> {
  const secret = secrets.some((s) => path === s || path.startsWith(`${s}.`));
  if (isPlainObject(before) && isPlainObject(after) && !secret) {
    const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
    return Object.assign({}, ...keys.map((key) => fieldChanges(before[key], after[key], secrets, path ? `${path}.${key}` : key)));
  }
  if (JSON.stringify(before ?? null) === JSON.stringify(after ?? null)) return {};
  return { [path]: secret ? { changed: true } : { from: before ?? null, to: after ?? null } };
}
