import { HTTP_METHODS, type HttpMethod, type OpenApiDocument, type Operation, type PathItem } from "./openapi-types";

export type OperationEntry = { path: string; method: HttpMethod; op: Operation; pathItem: PathItem };
export type TagGroup = { name: string; description?: string; operations: OperationEntry[] };

/** Operations by tag: declared tags first in their order, then others as they appear, untagged last. */
export function groupByTag(doc: OpenApiDocument): TagGroup[] {
  const groups = new Map<string, TagGroup>();
  for (const tag of doc.tags ?? []) groups.set(tag.name, { name: tag.name, description: tag.description, operations: [] });
  const untagged: OperationEntry[] = [];
  for (const [path, pathItem] of Object.entries(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      const op = pathItem[method];
      if (!op) continue;
      const entry = { path, method, op, pathItem };
      if (!op.tags?.length) untagged.push(entry);
      for (const tag of op.tags ?? []) {
        if (!groups.has(tag)) groups.set(tag, { name: tag, operations: [] });
        groups.get(tag)?.operations.push(entry);
      }
    }
  }
  const result = [...groups.values()].filter((g) => g.operations.length);
  if (untagged.length) result.push({ name: "Other", operations: untagged });
  return result;
}
