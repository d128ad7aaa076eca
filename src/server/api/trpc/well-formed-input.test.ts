import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { describe, expect, it } from "vitest";
import { problemFromError } from "@/server/http/problem";
import { publicProcedure, router, type Context } from "./procedures";

/*
 * The text rule is enforced by the base procedure, so every procedure kind built on it (the REST and
 * dashboard ones, and the client-library kind) refuses bad text before its own schema or resolver
 * runs. An SDK-shaped procedure stands in for that kind here.
 */
const reached: unknown[] = [];
const sdkShaped = router({
  trackRewardEvent: publicProcedure
    .input(z.object({ newUserId: z.string(), referralTrackingId: z.string(), eventName: z.string(), attributes: z.record(z.string(), z.string()).optional() }))
    .mutation(({ input }) => {
      reached.push(input);
      return { rewardClaimed: false };
    }),
});
const caller = sdkShaped.createCaller({ headers: new Headers(), via: "rest", requestId: "r", responseHeaders: new Headers() } as unknown as Context);
const body = { newUserId: "user-2002", referralTrackingId: "c3d4e5f6", eventName: "purchase" };

async function refusal(input: unknown) {
  const error = await caller.trackRewardEvent(input as typeof body).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(TRPCError);
  return problemFromError(error as TRPCError);
}

describe("the text rule on SDK-shaped input", () => {
  it("refuses NUL and unpaired surrogates in any field or key, naming it, before the resolver runs", async () => {
    expect(await refusal({ ...body, newUserId: "user\u0000" })).toMatchObject({ status: 400, errors: [{ field: "newUserId", rule: "no_nul" }] });
    expect(await refusal({ ...body, eventName: "buy\udc00" })).toMatchObject({ status: 400, errors: [{ field: "eventName", rule: "well_formed_unicode" }] });
    expect(await refusal({ ...body, attributes: { ["pl\ud800an"]: "pro" } })).toMatchObject({ errors: [{ field: "attributes", rule: "well_formed_unicode" }] });
    expect(reached).toEqual([]);
    expect(await caller.trackRewardEvent({ ...body, eventName: "achat 🛒" })).toEqual({ rewardClaimed: false });
    expect(reached).toHaveLength(1);
  });
});
