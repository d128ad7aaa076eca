import { describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, openSecret, secretHint } from "./webhook-secret";

const ONE = { current: "key-one" };

describe("webhook secret at rest", () => {
  it("round-trips through AES-256-GCM with a fresh nonce each time", () => {
    const a = encryptSecret("s3cret-value", ONE);
    const b = encryptSecret("s3cret-value", ONE);
    expect(a).not.toBe(b);
    expect(a).not.toContain("s3cret");
    expect(a.startsWith("v1.")).toBe(true);
    expect(decryptSecret(a, ONE)).toBe("s3cret-value");
  });

  it("refuses tampered ciphertext and another instance key", () => {
    const stored = encryptSecret("s3cret-value", ONE);
    const [format, nonce, tag, ciphertext] = stored.split(".") as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(decryptSecret([format, nonce, tag, flipped.toString("base64url")].join("."), ONE)).toBeNull();
    expect(decryptSecret(stored, { current: "key-two" })).toBeNull();
    expect(decryptSecret("plain-text", ONE)).toBeNull();
    expect(decryptSecret(stored, ONE)).toBe("s3cret-value");
  });

  it("rotates: the previous key still decrypts, the new key always encrypts", () => {
    const underOne = encryptSecret("old-secret", ONE);
    const rotated = { current: "key-two", previous: "key-one" };
    expect(openSecret(underOne, rotated)).toEqual({ plain: "old-secret", current: false });
    const underTwo = encryptSecret("new-secret", rotated);
    expect(openSecret(underTwo, rotated)).toEqual({ plain: "new-secret", current: true });
    expect(decryptSecret(underTwo, { current: "key-two" })).toBe("new-secret");
    expect(decryptSecret(underOne, { current: "key-two" })).toBeNull();
  });

  it("masks the secret, revealing at most four characters and a quarter of it", () => {
    expect(secretHint("abcdefghijklmnop1234")).toBe("****1234");
    expect(secretHint("abcdefgh")).toBe("****gh");
    expect(secretHint("abc")).toBe("****");
  });
});
