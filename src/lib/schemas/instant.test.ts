import { describe, expect, it } from "vitest";
import { createApiKeyBody } from "./accounts";
import { auditFilterSchema } from "./audit";
import { EARLIEST_INSTANT, instantSchema, LATEST_INSTANT } from "./instant";

describe("instantSchema", () => {
  it.each([EARLIEST_INSTANT, LATEST_INSTANT, "2026-01-31T12:00:00Z", "2026-01-31T12:00:00+05:30", "0001-01-01T00:00:00-01:00"])("accepts %s", (value) =>
    expect(instantSchema().safeParse(value).success).toBe(true),
  );

  it.each(["0000-01-01T00:00:00Z", "0000-02-29T00:00:00Z", "0001-01-01T00:00:00+00:01", "9999-12-31T23:59:59.999-00:01", "2026-01-31", "2026-02-30T00:00:00Z"])("refuses %s", (value) =>
    expect(instantSchema().safeParse(value).success).toBe(false),
  );

  it("bounds the audit filter and an API key's expiry too, naming the field", () => {
    expect(auditFilterSchema.safeParse({ from: "0000-01-01T00:00:00Z" }).error?.issues[0]?.path).toEqual(["from"]);
    expect(createApiKeyBody.safeParse({ name: "k", expiresAt: "0000-01-01T00:00:00Z" }).error?.issues[0]?.path).toEqual(["expiresAt"]);
  });
});
