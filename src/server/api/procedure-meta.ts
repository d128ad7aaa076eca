import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc";

/** The meta of a procedure by its dotted path (`projects.create`). */
export function procedureMeta(path: string): Meta | undefined {
  let node: unknown = appRouter._def.record;
  for (const segment of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[segment];
  return (node as { _def?: { meta?: Meta } } | undefined)?._def?.meta;
}

/** The meta of every procedure. */
export function allProcedureMeta(): Meta[] {
  const metas: Meta[] = [];
  const walk = (node: unknown) => {
    if (typeof node === "function" && "_def" in node) {
      const meta = (node as { _def: { meta?: Meta } })._def.meta;
      if (meta) metas.push(meta);
    } else if (node && typeof node === "object") for (const child of Object.values(node)) walk(child);
  };
  walk(appRouter._def.record);
  return metas;
}
