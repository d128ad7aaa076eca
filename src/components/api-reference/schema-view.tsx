import { Disclosure } from "./disclosure";
import { InlineMarkdown } from "./markdown";
import type { JsonSchema, OpenApiDocument } from "./openapi-types";
import { constraints, isNullSchema, mergeAllOf, refName, resolveSchema, typeLabel, unwrapNullable } from "./resolve";

const MAX_DEPTH = 6;

export const schemaAnchor = (name: string) => `schema-${name.replace(/[^A-Za-z0-9_-]/g, "-")}`;

type ViewProps = { doc: OpenApiDocument; schema: JsonSchema; seen?: readonly string[]; depth?: number };

/** A schema's type, with named schemas linking to their definition below. */
export function TypeLabel({ schema }: { schema: JsonSchema }) {
  const { schema: base, nullable } = unwrapNullable(schema);
  const named = base.$ref ?? (base.type === "array" ? base.items?.$ref : undefined);
  return (
    <span className="font-mono text-xs text-violet-700">
      {named ? (
        <a href={`#${schemaAnchor(refName(named))}`} className="underline decoration-dotted underline-offset-2 hover:text-violet-900">
          {typeLabel(base)}
        </a>
      ) : (
        typeLabel(base)
      )}
      {nullable && <span className="text-zinc-500"> | null</span>}
    </span>
  );
}

/** Enum values, default and constraints of one schema (its nullability and `$ref` taken away), as chips. */
export function Rules({ schema }: { schema: JsonSchema }) {
  const values = schema.enum ?? schema.items?.enum;
  const rules = constraints(schema);
  if (!values && schema.default === undefined && !rules.length) return null;
  return (
    <div className="mt-1 flex flex-wrap items-center gap-1.5 text-xs text-zinc-600">
      {values && (
        <span>
          one of{" "}
          {values.map((v, i) => (
            <code key={i} className="mr-1 inline-block rounded bg-zinc-100 px-1 py-0.5 font-mono break-all text-zinc-800">
              {JSON.stringify(v)}
            </code>
          ))}
        </span>
      )}
      {schema.default !== undefined && (
        <span>
          default <code className="rounded bg-zinc-100 px-1 py-0.5 font-mono text-zinc-800">{JSON.stringify(schema.default)}</code>
        </span>
      )}
      {rules.map((r) => (
        <span key={r} className="rounded border border-zinc-200 px-1.5 py-0.5">
          {r}
        </span>
      ))}
    </div>
  );
}

/** The schema that holds a value's structure: nullability, `$ref` and `allOf` taken away. */
function structure(doc: OpenApiDocument, schema: JsonSchema, seen: readonly string[]) {
  const resolved = resolveSchema(doc, unwrapNullable(schema).schema, seen);
  const nextSeen = resolved.name ? [...seen, resolved.name] : seen;
  return { schema: mergeAllOf(doc, resolved.schema, nextSeen), seen: nextSeen, cyclic: resolved.cyclic, name: resolved.name };
}

/** What to show below a value: its properties, its items' properties, or its alternatives. */
function Nested({ doc, schema, seen = [], depth = 0 }: ViewProps) {
  if (depth >= MAX_DEPTH) return null;
  const s = structure(doc, schema, seen);
  if (s.cyclic) return <p className="text-xs text-zinc-500">Recursive: see {s.name}.</p>;
  if (s.schema.properties && Object.keys(s.schema.properties).length) {
    return <PropertyList doc={doc} schema={s.schema} seen={s.seen} depth={depth} />;
  }
  if (s.schema.items) {
    const items = structure(doc, s.schema.items, s.seen);
    if (items.schema.properties || items.schema.anyOf || items.schema.oneOf) {
      return (
        <div>
          <p className="mb-1 text-xs text-zinc-500">Each item:</p>
          <Nested doc={doc} schema={s.schema.items} seen={s.seen} depth={depth + 1} />
        </div>
      );
    }
    return null;
  }
  const variants = (s.schema.anyOf ?? s.schema.oneOf)?.filter((v) => !isNullSchema(v));
  if (variants && variants.length > 1) {
    return (
      <ol className="space-y-2">
        {variants.map((v, i) => (
          <li key={i} className="rounded-md border border-dashed border-zinc-300 p-2">
            <p className="mb-1 text-xs text-zinc-500">
              Option {i + 1}: <TypeLabel schema={v} />
            </p>
            <Nested doc={doc} schema={v} seen={s.seen} depth={depth + 1} />
          </li>
        ))}
      </ol>
    );
  }
  return null;
}

function hasNested(doc: OpenApiDocument, schema: JsonSchema, seen: readonly string[]): boolean {
  const s = structure(doc, schema, seen);
  if (s.cyclic) return false;
  if (s.schema.properties && Object.keys(s.schema.properties).length) return true;
  if (s.schema.items) {
    const items = structure(doc, s.schema.items, s.seen).schema;
    return Boolean(items.properties || items.anyOf || items.oneOf);
  }
  return ((s.schema.anyOf ?? s.schema.oneOf)?.filter((v) => !isNullSchema(v)).length ?? 0) > 1;
}

/** The properties of an object schema: name, type, required or not, rules, description, nesting. */
export function PropertyList({ doc, schema, seen = [], depth = 0 }: ViewProps) {
  const required = new Set(schema.required ?? []);
  const entries = Object.entries(schema.properties ?? {});
  return (
    <ul className="divide-y divide-zinc-100 rounded-md border border-zinc-200 bg-white">
      {entries.map(([name, prop]) => {
        const shown = structure(doc, prop, seen).schema;
        return (
          <li key={name} className="px-3 py-2">
            <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
              <code className="font-mono text-sm font-semibold text-zinc-900">{name}</code>
              <TypeLabel schema={prop} />
              {required.has(name) ? (
                <span className="text-xs font-medium text-red-700">required</span>
              ) : (
                <span className="text-xs text-zinc-500">optional</span>
              )}
              {prop.deprecated && <span className="text-xs text-amber-700">deprecated</span>}
            </div>
            {(prop.description ?? shown.description) && (
              <p className="mt-0.5 text-sm text-zinc-600">
                <InlineMarkdown text={prop.description ?? shown.description ?? ""} />
              </p>
            )}
            <Rules schema={shown} />
            {hasNested(doc, prop, seen) && (
              <Disclosure
                className="mt-2"
                defaultOpen={depth < 1}
                summaryClassName="cursor-pointer text-xs font-medium text-brand-700 select-none"
                summary={`Fields of ${name}`}
              >
                <div className="mt-2 pl-3">
                  <Nested doc={doc} schema={prop} seen={seen} depth={depth + 1} />
                </div>
              </Disclosure>
            )}
          </li>
        );
      })}
      {schema.additionalProperties && typeof schema.additionalProperties === "object" && (
        <li className="px-3 py-2 text-sm text-zinc-600">
          Any other key: <TypeLabel schema={schema.additionalProperties} />
        </li>
      )}
    </ul>
  );
}

/** A whole schema (request body, response, component): its type line, description and structure. */
export function SchemaView({ doc, schema, seen = [], depth = 0 }: ViewProps) {
  const s = structure(doc, schema, seen);
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap items-baseline gap-2">
        <TypeLabel schema={schema} />
      </div>
      {s.schema.description && (
        <p className="text-sm text-zinc-600">
          <InlineMarkdown text={s.schema.description} />
        </p>
      )}
      <Rules schema={s.schema} />
      <Nested doc={doc} schema={schema} seen={seen} depth={depth} />
    </div>
  );
}
