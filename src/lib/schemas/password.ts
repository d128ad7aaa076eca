import { z } from "zod";
import "./plain-messages";

/*
 * The rules of every new password (sign-up, and later change and reset), in one home: the server
 * procedures parse with these schemas and the dashboard forms check with the same ones before sending.
 * The schemas are async (parseAsync,
 * safeParseAsync): the list of common passwords is imported on first use, so the 400 KB list is
 * not part of the sign-up page's scripts.
 */

export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 200;

/** Messages name the rule; the form puts "Password" before them. */
export const PASSWORD_MESSAGES = {
  blank: "must not be only spaces",
  minLength: `must be at least ${MIN_PASSWORD_LENGTH} characters`,
  maxLength: `must be at most ${MAX_PASSWORD_LENGTH} characters`,
  common: "is one of the most common passwords: choose one that is harder to guess",
  email: "must not be your e-mail address or the part before the @",
} as const;

// Compared as typed by a person who adds a space or capital: trimmed, lower-case, NFKC (as hashed).
const comparable = (text: string) => text.normalize("NFKC").trim().toLowerCase();

/**
 * zxcvbn-ts's list of the most common passwords (about 49,000 entries from breach corpora, all lower
 * case). Only entries long enough to pass the length rule can ever match, so only those are kept, and
 * the set is built on first use rather than when the module loads.
 */
let common: Promise<Set<string>> | undefined;
export async function isCommonPassword(password: string): Promise<boolean> {
  common ??= import("@zxcvbn-ts/language-common").then(
    ({ dictionary }) => new Set(dictionary["passwords-common"].filter((p) => p.length >= MIN_PASSWORD_LENGTH)),
  );
  return (await common).has(comparable(password));
}

/** The address itself or its local part, in any case. */
export function passwordMatchesEmail(password: string, email: string): boolean {
  const candidate = comparable(password);
  const address = comparable(email);
  return candidate !== "" && (candidate === address || candidate === address.split("@")[0]);
}

/** Length is counted in characters (code points), not UTF-16 units. */
export const passwordSchema = z.string().superRefine(async (password, ctx) => {
  const length = [...password].length;
  const fail = (message: string) => ctx.addIssue({ code: "custom", message });
  if (password.trim() === "") fail(PASSWORD_MESSAGES.blank);
  else if (length < MIN_PASSWORD_LENGTH) fail(PASSWORD_MESSAGES.minLength);
  else if (length > MAX_PASSWORD_LENGTH) fail(PASSWORD_MESSAGES.maxLength);
  else if (await isCommonPassword(password)) fail(PASSWORD_MESSAGES.common);
});

/** For an object schema with `email` and `password`: `.superRefine(passwordNotEmail)`. */
export function passwordNotEmail(value: { email: string; password: string }, ctx: z.RefinementCtx): void {
  if (passwordMatchesEmail(value.password, value.email)) {
    ctx.addIssue({ code: "custom", path: ["password"], message: PASSWORD_MESSAGES.email });
  }
}

/** A new password for an account's address: what a form checks before sending. */
export const newPasswordInput = z.object({ email: z.string(), password: passwordSchema }).superRefine(passwordNotEmail);
