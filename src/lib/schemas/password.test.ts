import { describe, expect, it } from "vitest";
import { newPasswordInput, PASSWORD_MESSAGES, passwordSchema } from "./password";

const messages = async (email: string, password: string) =>
  (await newPasswordInput.safeParseAsync({ email, password })).error?.issues.map((i) => i.message) ?? [];

describe("password policy", () => {
  it("accepts a long, uncommon password, like the one the e2e walks use", async () => {
    expect(await messages("ada@example.com", "correct horse battery")).toEqual([]);
    expect(await messages("ada@example.com", "ten chars!")).toEqual([]);
  });

  it("refuses fewer than 10 characters, counting characters rather than UTF-16 units", async () => {
    expect(await messages("ada@example.com", "password")).toEqual([PASSWORD_MESSAGES.minLength]);
    expect(await messages("ada@example.com", "nine char")).toEqual([PASSWORD_MESSAGES.minLength]);
    expect(await messages("ada@example.com", "🔑🔑🔑🔑🔑🔑")).toEqual([PASSWORD_MESSAGES.minLength]);
    expect(await messages("ada@example.com", "x".repeat(201))).toEqual([PASSWORD_MESSAGES.maxLength]);
  });

  it("refuses whitespace only, however long", async () => {
    expect(await messages("ada@example.com", "        ")).toEqual([PASSWORD_MESSAGES.blank]);
    expect(await messages("ada@example.com", " \t ".repeat(10))).toEqual([PASSWORD_MESSAGES.blank]);
  });

  it("refuses the most common passwords in any case and with surrounding spaces", async () => {
    for (const common of ["password123", "Password123", " qwertyuiop ", "1234567890", "PASSWORDPASSWORD"]) {
      expect(await messages("ada@example.com", common), common).toEqual([PASSWORD_MESSAGES.common]);
    }
  });

  it("refuses the e-mail address and its local part, in any case", async () => {
    expect(await messages("jonathan.smith@example.com", "Jonathan.Smith")).toEqual([PASSWORD_MESSAGES.email]);
    expect(await messages("jonathan.smith@example.com", "JONATHAN.SMITH@example.com")).toEqual([PASSWORD_MESSAGES.email]);
    expect(await messages("jonathan.smith@example.com", "jonathan.smith1")).toEqual([]);
  });

  it("names each rule in its message", async () => {
    expect((await passwordSchema.safeParseAsync("short")).error?.issues[0]?.message).toBe("must be at least 10 characters");
  });
});
