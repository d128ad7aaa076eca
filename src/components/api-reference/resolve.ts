import type { JsonSchema, OpenApiDocument, Reference } from "./openapi-types";

const isReference = (value: object): value is Reference => typeof (value as { $ref?: unknown }).$ref === "string";

/** `#/components/schemas/ProjectDto` -> `ProjectDto`. */
export function refName(ref: string): string {
  return decodeURIComponent(ref.slice(ref.lastIndexOf("/") + 1)).replaceAll("~1", "/").replaceAll("~0", "~");
}

/** Follows a local `#/...` pointer through the document. */
export function lookup(doc: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    node = typeof node === "object" && node !== null ? (node as Record<string, unknown>)[key] : undefined;
  }
  return node;
}

/** A parameter, body or response that may be given by reference. */
export function deref<T extends object>(doc: OpenApiDocument, value: T | Reference): T | undefined {
  return isReference(value) ? (lookup(doc, value.$ref) as T | undefined) : value;
}

export const isNullSchema = (s: JsonSchema) => s.type === "null" || (Array.isArray(s.type) && s.type.length === 1 && s.type[0] === "null");

/** `anyOf: [X, {type: null}]` is how 3.1 writes "nullable X": split it into X and the flag. */
export function unwrapNullable(schema: JsonSchema): { schema: JsonSchema; nullable: boolean } {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) {
    const rest = variants.filter((v) => !isNullSchema(v));
    if (rest.length === 1 && rest.length < variants.length) {
      const { anyOf: _a, oneOf: _o, ...outer } = schema;
      return { schema: { ...rest[0], ...outer }, nullable: true };
    }
  }
  if (Array.isArray(schema.type) && schema.type.includes("null")) {
    const types = schema.type.filter((t) => t !== "null");
    return { schema: { ...schema, type: types.length === 1 ? types[0] : types }, nullable: true };
  }
  return { schema, nullable: schema.nullable === true };
}

/** A schema with its `$ref` followed (names of followed refs go into `seen`, to stop cycles). */
export function resolveSchema(
  doc: OpenApiDocument,
  schema: JsonSchema,
  seen: readonly string[] = [],
): { schema: JsonSchema; name?: string; cyclic: boolean } {
  if (!schema.$ref) return { schema, cyclic: false };
  const name = refName(schema.$ref);
  if (seen.includes(name)) return { schema: {}, name, cyclic: true };
  const target = lookup(doc, schema.$ref) as JsonSchema | undefined;
  const { $ref: _ref, ...siblings } = schema;
  return { schema: { ...(target ?? {}), ...siblings }, name, cyclic: false };
}

/** `allOf` members merged into one object schema (properties and required lists combined). */
export function mergeAllOf(doc: OpenApiDocument, schema: JsonSchema, seen: readonly string[]): JsonSchema {
  if (!schema.allOf) return schema;
  const { allOf, ...base } = schema;
  const merged: JsonSchema = { ...base, properties: { ...base.properties }, required: [...(base.required ?? [])] };
  for (const part of allOf) {
    const resolved = mergeAllOf(doc, resolveSchema(doc, part, seen).schema, seen);
    merged.type ??= resolved.type;
    merged.description ??= resolved.description;
    Object.assign(merged.properties ?? {}, resolved.properties);
    merged.required?.push(...(resolved.required ?? []));
  }
  return merged;
}

/** A short type: `string`, `ProjectDto`, `string[]`, `"Web" | "Mobile"`, `integer (int32)`. */
export function typeLabel(schema: JsonSchema): string {
  if (schema.$ref) return refName(schema.$ref);
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants) return variants.map(typeLabel).join(" | ");
  if (schema.allOf) return schema.allOf.map(typeLabel).join(" & ");
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (!types.length) return schema.properties ? "object" : "any";
  return types
    .map((t) => {
      if (t === "array") {
        const item = schema.items ? typeLabel(schema.items) : "any";
        return item.includes(" ") ? `(${item})[]` : `${item}[]`;
      }
      return schema.format && t !== "null" ? `${t} (${schema.format})` : t;
    })
    .join(" | ");
}

const range = (min: number | undefined, max: number | undefined, unit: string) => {
  if (min !== undefined && max !== undefined) return min === max ? `exactly ${min} ${unit}` : `${min}–${max} ${unit}`;
  if (min !== undefined) return `at least ${min} ${unit}`;
  if (max !== undefined) return `at most ${max} ${unit}`;
  return null;
};

/** zod writes the safe-integer range on every `.int()`; that bound is noise, not a rule. */
const bounded = (n: number | undefined): n is number => n !== undefined && Math.abs(n) < Number.MAX_SAFE_INTEGER;

/** The validation rules of a schema, in words. */
export function constraints(schema: JsonSchema): string[] {
  const out: (string | null)[] = [
    range(schema.minLength, schema.maxLength, "characters"),
    range(schema.minItems, schema.maxItems, "items"),
    bounded(schema.minimum) ? `≥ ${schema.minimum}` : null,
    schema.exclusiveMinimum !== undefined ? `> ${schema.exclusiveMinimum}` : null,
    bounded(schema.maximum) ? `≤ ${schema.maximum}` : null,
    schema.exclusiveMaximum !== undefined ? `< ${schema.exclusiveMaximum}` : null,
    schema.multipleOf !== undefined ? `multiple of ${schema.multipleOf}` : null,
    schema.pattern ? `pattern ${schema.pattern}` : null,
    schema.uniqueItems ? "unique items" : null,
    schema.readOnly ? "read-only" : null,
    schema.writeOnly ? "write-only" : null,
  ];
  if (schema.items) out.push(...constraints(schema.items).map((c) => `each: ${c}`));
  return out.filter((c): c is string => c !== null);
}
