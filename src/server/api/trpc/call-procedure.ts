import { getTRPCErrorFromUnknown, TRPCError, type AnyTRPCProcedure, type AnyTRPCRouter } from "@trpc/server";

type MiddlewareResult = { ok: true; data: unknown; ctx: unknown } | { ok: false; error: TRPCError };
type NextOptions = { ctx?: object; input?: unknown; getRawInput?: () => Promise<unknown> };
type Middleware = (opts: {
  ctx: object;
  type: "query" | "mutation";
  path: string;
  input: unknown;
  getRawInput: () => Promise<unknown>;
  meta: unknown;
  signal: undefined;
  batchIndex: number;
  next: (opts?: NextOptions) => Promise<MiddlewareResult>;
}) => Promise<MiddlewareResult>;

/**
 * Calls a procedure as tRPC's callProcedure does (its middlewares in order, each `next` merging the
 * context, the input and the raw input it is given, a thrown error becoming the level's failed
 * result), with native object spreads: tRPC's build copies the options twice per level through a
 * compiled spread helper, a tenth of a REST GET's CPU in a profile. A call runs to its end when its
 * client goes away, as a write must (no signal). call-procedure.test.ts holds it to tRPC's own.
 */
export async function callProcedure(
  router: AnyTRPCRouter,
  { path, type, ctx, getRawInput }: { path: string; type: "query" | "mutation"; ctx: object; getRawInput: () => Promise<unknown> },
): Promise<unknown> {
  const procedure = (router._def.procedures as Record<string, AnyTRPCProcedure | undefined>)[path];
  if (!procedure || procedure._def.type !== type) throw new TRPCError({ code: "NOT_FOUND", message: `No "${type}"-procedure on path "${path}"` });
  const { middlewares, meta } = procedure._def as unknown as { middlewares: Middleware[]; meta: unknown };
  const call = async (index: number, ctx: object, input: unknown, getRawInput: () => Promise<unknown>): Promise<MiddlewareResult> => {
    try {
      return await middlewares[index]!({
        ctx,
        type,
        path,
        input,
        getRawInput,
        meta,
        signal: undefined,
        batchIndex: 0,
        next: (next) => call(index + 1, next?.ctx ? { ...ctx, ...next.ctx } : ctx, next && "input" in next ? next.input : input, next?.getRawInput ?? getRawInput),
      });
    } catch (cause) {
      return { ok: false, error: getTRPCErrorFromUnknown(cause) };
    }
  };
  const result = await call(0, ctx, undefined, getRawInput);
  if (!result.ok) throw result.error;
  return result.data;
}
