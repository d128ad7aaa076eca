import { describe, expect, it } from "vitest";
import { webhookSecretSchema } from "@/lib/schemas/webhooks";
import { generateWebhookSecret, webhookSigningKey } from "./webhook-secrets";

const refusal = (secret: string) => webhookSecretSchema.safeParse(secret).error?.issues[0]?.code ?? null;

describe("webhook secret forms", () => {
  it("generates whsec_ + base64 of 24 random bytes, a fresh one each time, that the schema accepts", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(refusal(secret)).toBeNull();
  });

  it("keys a Standard Webhooks secret with its decoded bytes, any other secret with its UTF-8 bytes", () => {
    const secret = generateWebhookSecret();
    expect(Buffer.from(webhookSigningKey(secret))).toEqual(Buffer.from(secret.slice(6), "base64"));
    expect(Buffer.from(webhookSigningKey("client-chosen-secret-1"))).toEqual(Buffer.from("client-chosen-secret-1", "utf8"));
    // Stored by earlier versions (base64url, unpadded): keeps its UTF-8 key, so receivers do not break.
    const legacy = "whsec_" + Buffer.alloc(32, 7).toString("base64url");
    expect(Buffer.from(webhookSigningKey(legacy))).toEqual(Buffer.from(legacy, "utf8"));
  });

  it("requires 16 to 512 visible ASCII characters, and the Standard Webhooks form after whsec_", () => {
    expect(refusal("fifteen-chars-x")).toBe("too_small");
    expect(refusal("sixteen-chars-xy")).toBeNull();
    expect(refusal("x".repeat(513))).toBe("too_big");
    expect(refusal("has a space in the middle")).toBe("invalid_format");
    expect(refusal("whsec_" + Buffer.alloc(16).toString("base64"))).toBe("custom");
    expect(refusal("whsec_" + Buffer.alloc(32, 1).toString("base64url"))).toBe("custom");
    expect(refusal("whsec_" + Buffer.alloc(64, 1).toString("base64"))).toBeNull();
    expect(refusal("whsec_" + Buffer.alloc(65, 1).toString("base64"))).toBe("custom");
  });
});
