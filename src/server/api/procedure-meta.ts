import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc";

/** The meta of a procedure by its dotted path (`projects.create`). */
export function procedureMeta(path: string): Meta | undefined {
  let node: unknown = appRouter._def.record;
  for (const segment of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[segment];
  return (node as { _def?: { meta?: Meta } } | undefined)?._def?.meta;
}
