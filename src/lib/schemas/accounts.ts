import { z } from "zod";
import { requiredText } from "./common";
import { passwordNotEmail, passwordSchema } from "./password";

export const EMAIL_MAX_LENGTH = 254;
export const PERSON_NAME_MAX_LENGTH = 100;
export const ORGANIZATION_NAME_MAX_LENGTH = 100;
export const API_KEY_NAME_MAX_LENGTH = 100;

export const MEMBER_ROLES = ["owner", "member"] as const;

/** The `error` a sign-in answers with when a rate limit or an address lockout refused it (429). */
export const SIGN_IN_REFUSED = "TooManyAttempts";

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ error: "must be an e-mail address" }).max(EMAIL_MAX_LENGTH));
export const organizationNameSchema = requiredText(ORGANIZATION_NAME_MAX_LENGTH);

/** Async (the common-password list loads on first use): parse with parseAsync/safeParseAsync. */
export const signUpBody = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    name: z.string().trim().max(PERSON_NAME_MAX_LENGTH).nullish(),
    organizationName: organizationNameSchema,
  })
  .superRefine(passwordNotEmail);
export type SignUpInput = z.output<typeof signUpBody>;

export const organizationBody = z.object({ name: organizationNameSchema });

export const addMemberBody = z.object({ email: emailSchema, role: z.enum(MEMBER_ROLES).default("member") });

export const createApiKeyBody = z.object({
  name: requiredText(API_KEY_NAME_MAX_LENGTH),
  expiresAt: z.iso
    .datetime({ offset: true })
    .nullish()
    .refine((v) => !v || new Date(v) > new Date(), { message: "must be in the future" }),
});

/**
 * An organisation's own request quota per minute, as an operator sets it: a whole number (0: no
 * limit), or "default" (null) for the server-wide setting.
 */
export const quotaPerMinuteSchema = z.union([
  z.literal("default").transform(() => null),
  z.coerce.number({ error: "must be a whole number or default" }).int({ error: "must be a whole number or default" }).min(0).max(1_000_000),
]);
