import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { decryptSecret, encryptSecret, openSecret, secretHint } from "./webhook-secret";

beforeEach(() => vi.stubEnv("REFERLOOP_ENCRYPTION_KEY", "key-one"));
afterEach(() => vi.unstubAllEnvs());

describe("webhook secret at rest", () => {
  it("round-trips through AES-256-GCM with a fresh nonce each time", () => {
    const a = encryptSecret("s3cret-value");
    const b = encryptSecret("s3cret-value");
    expect(a).not.toBe(b);
    expect(a).not.toContain("s3cret");
    expect(a.startsWith("v1.")).toBe(true);
    expect(decryptSecret(a)).toBe("s3cret-value");
  });

  it("refuses tampered ciphertext and another instance key", () => {
    const stored = encryptSecret("s3cret-value");
    const [format, nonce, tag, ciphertext] = stored.split(".") as [string, string, string, string];
    const flipped = Buffer.from(ciphertext, "base64url");
    flipped[0] = flipped[0]! ^ 1;
    expect(() => decryptSecret([format, nonce, tag, flipped.toString("base64url")].join("."))).toThrow();
    vi.stubEnv("REFERLOOP_ENCRYPTION_KEY", "key-two");
    expect(() => decryptSecret(stored)).toThrow();
    expect(() => decryptSecret("plain-text")).toThrow();
  });

  it("rotates: the previous key still decrypts, the new key always encrypts", () => {
    const underOne = encryptSecret("old-secret");
    vi.stubEnv("REFERLOOP_ENCRYPTION_KEY", "key-two");
    vi.stubEnv("REFERLOOP_ENCRYPTION_KEY_PREVIOUS", "key-one");
    expect(openSecret(underOne)).toEqual({ plain: "old-secret", current: false });
    const underTwo = encryptSecret("new-secret");
    expect(openSecret(underTwo)).toEqual({ plain: "new-secret", current: true });
    vi.stubEnv("REFERLOOP_ENCRYPTION_KEY_PREVIOUS", "");
    expect(decryptSecret(underTwo)).toBe("new-secret");
    expect(() => decryptSecret(underOne)).toThrow(/another key/);
  });

  it("masks the secret, revealing at most four characters and a quarter of it", () => {
    expect(secretHint("abcdefghijklmnop1234")).toBe("****1234");
    expect(secretHint("abcdefgh")).toBe("****gh");
    expect(secretHint("abc")).toBe("****");
  });
});
