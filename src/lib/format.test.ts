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
