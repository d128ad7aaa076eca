/*
 * The one text rule every input string obeys, whatever field it is: no NUL character and no unpaired
 * UTF-16 surrogate. PostgreSQL cannot store either (text refuses U+0000, jsonb refuses both escapes),
 * and no legitimate id, name or attribute contains them. And one key rule: no map key `__proto__`,
 * which JSON can carry but a JavaScript object cannot hold (zod drops it from a record without a
 * word, so an attribute of that name would vanish). The API checks the whole raw input of every
 * procedure against it in one middleware (src/server/api/trpc/procedures.ts), keys of maps included, before any
 * schema runs, so no field can be forgotten.
 */

export type TextIssue = { field: string; rule: TextRule | typeof RESERVED_KEY; message: string };
export type TextRule = keyof typeof TEXT_RULES;

export const TEXT_RULES = {
  no_nul: "must not contain the NUL character (U+0000)",
  well_formed_unicode: "must not contain an unpaired UTF-16 surrogate (U+D800 to U+DFFF alone)",
} as const;

export const RESERVED_KEY = "reserved_key";

/** Beyond this many issues a request is reported by its first ones only. */
const MAX_ISSUES = 10;

// With the u flag a surrogate pair is one code point; only an unpaired half is in category Cs.
const UNPAIRED_SURROGATE = /\p{Cs}/u;

function ruleBroken(text: string): TextRule | null {
  if (text.includes("\u0000")) return "no_nul";
  if (UNPAIRED_SURROGATE.test(text)) return "well_formed_unicode";
  return null;
}

/** A path as a chain to its parent, so walking a deeply nested body copies nothing per level. */
type Path = { key: string; parent: Path } | null;

function fieldName(path: Path): string {
  const keys: string[] = [];
  for (let p = path; p; p = p.parent) keys.push(p.key);
  return keys.reverse().join(".") || "(body)";
}

/**
 * Every string in `value` (object keys too) that breaks the rule, with its dotted path (a key is
 * reported on the map that holds it). Iterative, so a deeply nested body cannot overflow the stack.
 */
export function findTextIssues(value: unknown): TextIssue[] {
  const issues: TextIssue[] = [];
  const pending: { value: unknown; path: Path }[] = [{ value, path: null }];
  while (pending.length && issues.length < MAX_ISSUES) {
    const { value: current, path } = pending.pop()!;
    if (typeof current === "string") {
      const rule = ruleBroken(current);
      if (rule) issues.push({ field: fieldName(path), rule, message: TEXT_RULES[rule] });
    } else if (ArrayBuffer.isView(current)) {
      // Bytes (an uploaded icon) hold no text; walking a 10 MB upload's indexes took 25 s.
      continue;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) pending.push({ value: current[i], path: { key: String(i), parent: path } });
    } else if (current !== null && typeof current === "object") {
      for (const [key, item] of Object.entries(current).reverse()) {
        const rule = ruleBroken(key);
        if (rule) issues.push({ field: fieldName(path), rule, message: `has a key that ${TEXT_RULES[rule]}` });
        else if (key === "__proto__") issues.push({ field: fieldName(path), rule: RESERVED_KEY, message: "has the key __proto__, which cannot be stored" });
        else pending.push({ value: item, path: { key, parent: path } });
      }
    }
  }
  return issues.slice(0, MAX_ISSUES);
}
