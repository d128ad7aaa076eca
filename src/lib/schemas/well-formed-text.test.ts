import { describe, expect, it } from "vitest";
import { findTextIssues } from "./well-formed-text";

describe("findTextIssues", () => {
  it("accepts any well-formed text, astral characters (surrogate pairs) included", () => {
    expect(findTextIssues({ name: "Zoë 😀 漢字", list: ["\u{1F600}", "\ud83d\ude00"], n: 1, b: true, nil: null })).toEqual([]);
  });

  it("names each bad string by its dotted path, and a bad key by the map that holds it", () => {
    expect(findTextIssues({ a: { b: ["ok", "x\u0000"] }, attributes: { ["k\udfff"]: "v" }, lone: "\ud800" })).toEqual([
      { field: "a.b.1", rule: "no_nul", message: "must not contain the NUL character (U+0000)" },
      { field: "attributes", rule: "well_formed_unicode", message: expect.stringMatching(/^has a key that must not contain an unpaired/) },
      { field: "lone", rule: "well_formed_unicode", message: expect.stringContaining("unpaired UTF-16 surrogate") },
    ]);
    expect(findTextIssues("\u0000")).toEqual([expect.objectContaining({ field: "(body)" })]);
  });

  it("names a map holding the key __proto__ (JSON carries it; a JavaScript object would drop it)", () => {
    expect(findTextIssues(JSON.parse('{"attributes":{"plan":"pro","__proto__":"x"},"ok":{"proto":"y"}}'))).toEqual([
      { field: "attributes", rule: "reserved_key", message: "has the key __proto__, which cannot be stored" },
    ]);
  });

  it("walks deep nesting without recursion and reports at most ten issues", () => {
    let deep: unknown = "bad\u0000";
    for (let i = 0; i < 200_000; i++) deep = [deep];
    expect(findTextIssues(deep)).toHaveLength(1);
    expect(findTextIssues(Array.from({ length: 50 }, () => "\u0000"))).toHaveLength(10);
  });
});
