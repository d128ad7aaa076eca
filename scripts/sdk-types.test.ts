import { describe, expect, it } from "vitest";
import { staleTypes } from "./sdk-types";

describe("the client packages' generated wire types", () => {
  it("are what the OpenAPI document says today (run npm run sdk:types after changing the API)", async () => {
    expect(await staleTypes()).toEqual([]);
  });
});
