import { describe, expect, it } from "vitest";
import { checkWebhookSecret, generateWebhookSecret, webhookSigningKey } from "./standard-webhook-secret";

describe("webhook secret forms", () => {
  it("generates whsec_ + base64 of 24 random bytes, a fresh one each time", () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(Buffer.from(secret.slice(6), "base64")).toHaveLength(24);
    expect(generateWebhookSecret()).not.toBe(secret);
    expect(checkWebhookSecret(secret)).toBeNull();
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
    expect(checkWebhookSecret("fifteen-chars-x")?.rule).toBe("min_length");
    expect(checkWebhookSecret("sixteen-chars-xy")).toBeNull();
    expect(checkWebhookSecret("x".repeat(513))?.rule).toBe("max_length");
    expect(checkWebhookSecret("has a space in the middle")?.rule).toBe("charset");
    expect(checkWebhookSecret("whsec_" + Buffer.alloc(16).toString("base64"))?.rule).toBe("standard_webhooks");
    expect(checkWebhookSecret("whsec_" + Buffer.alloc(32, 1).toString("base64url"))?.rule).toBe("standard_webhooks");
    expect(checkWebhookSecret("whsec_" + Buffer.alloc(64, 1).toString("base64"))).toBeNull();
    expect(checkWebhookSecret("whsec_" + Buffer.alloc(65, 1).toString("base64"))?.rule).toBe("standard_webhooks");
  });
});
