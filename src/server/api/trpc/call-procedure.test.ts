import { callTRPCProcedure, initTRPC, TRPCError } from "@trpc/server";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { appRouter } from "@/server/api/root";
import { callProcedure } from "./call-procedure";

type Ctx = { user: string | null; seen: string[] };
const t = initTRPC.context<Ctx>().meta<{ label?: string }>().create();

// Middlewares that use each thing `next` can pass on, as the app's procedure kinds do.
const withRawInputRewritten = t.procedure.use(async ({ getRawInput, next }) => {
  const raw = (await getRawInput()) as { name?: unknown; shout?: boolean } | undefined;
  return raw?.shout ? next({ getRawInput: async () => ({ ...raw, name: String(raw.name).toUpperCase() }) }) : next();
});
const authed = withRawInputRewritten.use(async ({ ctx, meta, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: "no user" });
  const result = await next({ ctx: { role: "admin" as const, seen: [...ctx.seen, meta?.label ?? "-"] } });
  // Replaces a failure below with one of its own kind, as requestRules does with domain errors.
  if (!result.ok && result.error.message === "replace me") throw new TRPCError({ code: "CONFLICT", message: "replaced" });
  return result;
});

const router = t.router({
  greet: authed
    .meta({ label: "greet" })
    .input(z.object({ name: z.string().min(2), shout: z.boolean().optional() }))
    .output(z.object({ text: z.string() }))
    .query(({ ctx, input }) => ({ text: `${input.name} ${ctx.role} ${ctx.seen.join(",")} ${ctx.user}`, extra: "stripped" })),
  badOutput: authed.output(z.object({ n: z.number() })).query(() => ({ n: "one" }) as unknown as { n: number }),
  fails: authed.input(z.object({ how: z.enum(["trpc", "plain", "replace"]) })).mutation(({ input }) => {
    if (input.how === "trpc") throw new TRPCError({ code: "NOT_FOUND", message: "gone" });
    if (input.how === "plain") throw new Error("boom");
    throw new Error("replace me");
  }),
  open: t.procedure.query(({ ctx }) => ctx.seen.length),
});

type Call = { path: string; type: "query" | "mutation"; input: unknown; user?: string | null };

const outcome = (promise: Promise<unknown>) =>
  promise.then(
    (data) => ({ ok: true, data }),
    (error: TRPCError) => ({ ok: false, error: { name: error.name, code: error.code, message: error.message, cause: error.cause?.message } }),
  );

const both = async ({ path, type, input, user = "ann" }: Call) => {
  const ctx = () => ({ user, seen: ["start"] });
  const theirs = await outcome(callTRPCProcedure({ router, path, type, ctx: ctx(), getRawInput: async () => input, signal: undefined, batchIndex: 0 }));
  const ours = await outcome(callProcedure(router, { path, type, ctx: ctx(), getRawInput: async () => input }));
  return { theirs, ours };
};

describe("callProcedure", () => {
  it.each<[string, Call]>([
    ["a success, the context merged across levels and the output parsed", { path: "greet", type: "query", input: { name: "bo" } }],
    ["the raw input replaced by a middleware", { path: "greet", type: "query", input: { name: "bo", shout: true } }],
    ["an input the schema refuses", { path: "greet", type: "query", input: { name: "b" } }],
    ["a middleware's refusal", { path: "greet", type: "query", input: { name: "bo" }, user: null }],
    ["an output the schema refuses", { path: "badOutput", type: "query", input: undefined }],
    ["a TRPCError from the resolver", { path: "fails", type: "mutation", input: { how: "trpc" } }],
    ["another error from the resolver", { path: "fails", type: "mutation", input: { how: "plain" } }],
    ["a failure a middleware replaces", { path: "fails", type: "mutation", input: { how: "replace" } }],
    ["a procedure without middlewares of its own", { path: "open", type: "query", input: undefined }],
    ["a path with no procedure", { path: "nothing", type: "query", input: undefined }],
    ["a procedure of the other kind", { path: "greet", type: "mutation", input: { name: "bo" } }],
  ])("answers as tRPC's own caller: %s", async (_, call) => {
    const { theirs, ours } = await both(call);
    expect(ours).toEqual(theirs);
  });

  it("checks what it compares: the cases above succeed and fail as meant", async () => {
    expect((await both({ path: "greet", type: "query", input: { name: "bo", shout: true } })).ours).toEqual({ ok: true, data: { text: "BO admin start,greet ann" } });
    expect((await both({ path: "fails", type: "mutation", input: { how: "replace" } })).ours).toMatchObject({ ok: false, error: { code: "CONFLICT" } });
    expect((await both({ path: "badOutput", type: "query", input: undefined })).ours).toMatchObject({ ok: false, error: { code: "INTERNAL_SERVER_ERROR" } });
  });

  it("finds every procedure of the app's router (it loads no lazy routers, as tRPC's caller would)", () => {
    expect(Object.keys(appRouter._def.lazy)).toEqual([]);
  });
});
