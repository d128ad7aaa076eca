import { z } from "zod";
import { describe, expect, it } from "vitest";
import { newUserExperienceSchema, PROMO_TEXT_MAX_LENGTH } from "./campaigns";
import "./plain-messages";

const messageOf = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return result.error!.issues[0]!.message;
};

describe("plain validation messages", () => {
  it("says what the campaign's promo text allows, not zod's wording", () => {
    const message = messageOf(newUserExperienceSchema, { promoText: "x".repeat(PROMO_TEXT_MAX_LENGTH + 1), promoPosition: "top-center" });
    expect(message).toBe(`must be at most ${PROMO_TEXT_MAX_LENGTH} characters`);
  });

  it.each([
    [z.string(), undefined, "is required"],
    [z.string(), 5, "must be text"],
    [z.number(), "x", "must be a number"],
    [z.number().int(), 1.5, "must be a whole number"],
    [z.boolean(), "yes", "must be true or false"],
    [z.string().min(1), "", "must not be empty"],
    [z.string().min(3), "ab", "must be at least 3 characters"],
    [z.number().min(1), 0, "must be at least 1"],
    [z.number().max(100), 101, "must be at most 100"],
    [z.number().lt(10), 10, "must be less than 10"],
    [z.array(z.string()).max(2), ["a", "b", "c"], "must be at most 2 entries"],
    [z.array(z.string()).min(1), [], "must have at least one entry"],
    [z.string().email(), "nope", "must be an e-mail address"],
    [z.string().uuid(), "nope", "must be an id (UUID)"],
    [z.string().regex(/^a$/), "b", "is not in the expected format"],
    [z.enum(["Web", "Mobile"]), "Desktop", 'must be one of "Web", "Mobile"'],
    [z.strictObject({ a: z.string() }), { a: "x", b: 1 }, "has a field it does not know: b"],
  ] as const)("%#: %j -> %s", (schema, value, expected) => {
    expect(messageOf(schema as z.ZodType, value)).toBe(expected);
  });

  it("leaves a message set on the schema alone", () => {
    expect(messageOf(z.string().min(1, { error: "is required" }), "")).toBe("is required");
  });
});
