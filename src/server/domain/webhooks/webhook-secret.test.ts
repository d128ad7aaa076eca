import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, secretHint } from "./webhook-secret";

const KEY = "key-one";

describe("webhook secret at rest", () => {
  it("round-trips through AES-256-GCM with a fresh nonce each time", () => {
    const a = encryptSecret("s3cret-value", KEY);
    const b = encryptSecret("s3cret-value", KEY);
    expect(a).not.toBe(b);
    expect(a).not.toContain("s3cret");
    expect(a.startsWith("v1.")).toBe(true);
    expect(decryptSecret(a, KEY)).toBe("s3cret-value");
  });

  it("refuses tampered ciphertext and another instance key", () => {
    const stored = encryptSecret("s3cret-value", KEY);
    const [format, nonce, tag, ciphertext] = stored.split(".") as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(decryptSecret([format, nonce, tag, flipped.toString("base64url")].join("."), KEY)).toBeNull();
    expect(decryptSecret(stored, "key-two")).toBeNull();
    expect(decryptSecret("plain-text", KEY)).toBeNull();
    expect(decryptSecret(stored, KEY)).toBe("s3cret-value");
  });

  it("masks the secret, revealing at most four characters and a quarter of it", () => {
    expect(secretHint("abcdefghijklmnop1234")).toBe("****1234");
    expect(secretHint("abcdefgh")).toBe("****gh");
    expect(secretHint("abc")).toBe("****");
  });
});
