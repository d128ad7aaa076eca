import { describe, expect, it } from "vitest";
import { waitInWords } from "./format";

describe("waitInWords", () => {
  it.each([
    [1, "1 second"],
    [40, "40 seconds"],
    [60, "1 minute"],
    [61, "2 minutes"],
    [1500, "25 minutes"],
    [5399, "90 minutes"],
    [5400, "2 hours"],
    [3 * 3600, "3 hours"],
  ])("%i s reads %s", (seconds, words) => expect(waitInWords(seconds)).toBe(words));
});

describe("readable dates in text", () => {
  it("writes ISO instants as dates and leaves the rest", async () => {
    const { withReadableDates, formatUtc } = await import("./format");
    const text = withReadableDates("held for review until 2026-12-29T10:41:27.480Z: the campaign holds it");
    expect(text).not.toContain("2026-12-29T");
    expect(text).toMatch(/^held for review until \d{1,2} Dec 2026, \d\d:\d\d: the campaign holds it$/);
    expect(withReadableDates("no dates, 2026 only")).toBe("no dates, 2026 only");
    expect(formatUtc(new Date("2026-12-29T10:41:27.480Z"))).toBe("29 Dec 2026, 10:41 UTC");
  });
});
