import { describe, expect, it } from "vitest";
import { fieldChanges } from "./field-changes";

describe("fieldChanges", () => {
  it("lists each changed field by its dotted path, with both values", () => {
    const before = { name: "Shop", rules: { holdDays: 0, caps: { perDay: 5 } }, origins: ["https://a.example"] };
    const after = { name: "Shop", rules: { holdDays: 7, caps: { perDay: 5 } }, origins: ["https://a.example", "https://b.example"] };
    expect(fieldChanges(before, after)).toEqual({
      "rules.holdDays": { from: 0, to: 7 },
      origins: { from: ["https://a.example"], to: ["https://a.example", "https://b.example"] },
    });
  });

  it("names added and removed fields, and nothing when nothing changed", () => {
    expect(fieldChanges({ a: 1 }, { b: 2 })).toEqual({ a: { from: 1, to: null }, b: { from: null, to: 2 } });
    expect(fieldChanges({ a: { b: [1] } }, { a: { b: [1] } })).toEqual({});
  });

  it("never carries a secret's value, only that it changed", () => {
    const changes = fieldChanges({ secret: "old-value", nested: { token: "t1" } }, { secret: "new-value", nested: { token: "t2" } }, ["secret", "nested"]);
    expect(changes).toEqual({ secret: { changed: true }, nested: { changed: true } });
    expect(JSON.stringify(changes)).not.toMatch(/old-value|new-value|t1|t2/);
  });
});
