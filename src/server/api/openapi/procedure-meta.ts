import type { ZodType } from "zod";
import { appRouter } from "@/server/api/root";
import type { Meta } from "@/server/api/trpc/procedures";

type ProcedureDef = { meta?: Meta; inputs?: ZodType[] };

function procedureDef(path: string): ProcedureDef | undefined {
  let node: unknown = appRouter._def.record;
  for (const segment of path.split(".")) node = (node as Record<string, unknown> | undefined)?.[segment];
  return (node as { _def?: ProcedureDef } | undefined)?._def;
}

/** The meta of a procedure by its dotted path (`projects.create`). */
export const procedureMeta = (path: string): Meta | undefined => procedureDef(path)?.meta;

/** The input schema of a procedure by its dotted path (its body's OpenAPI title and examples ride on it). */
export const procedureInput = (path: string): ZodType | undefined => procedureDef(path)?.inputs?.[0];
