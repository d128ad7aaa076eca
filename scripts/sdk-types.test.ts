import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { MOBILE_API_TYPES, mobileApiTypes } from "./sdk-types";

describe("the mobile client's wire types", () => {
  it("are what the OpenAPI document says today (run npm run sdk:types after changing an SDK answer)", async () => {
    expect(readFileSync(MOBILE_API_TYPES, "utf8")).toBe(await mobileApiTypes());
  });
});
