import { z } from "zod";
import { ApiKeyRole, MemberRole } from "@/generated/prisma/enums";
import { idInput, requiredText } from "./common";
import { passwordNotEmail, passwordSchema } from "./password";
import { instantSchema } from "./instant";

export const EMAIL_MAX_LENGTH = 254;
export const PERSON_NAME_MAX_LENGTH = 100;
export const ORGANIZATION_NAME_MAX_LENGTH = 100;
export const API_KEY_NAME_MAX_LENGTH = 100;

/** Most powerful first. What each may do: src/lib/permissions.ts. */
export const MEMBER_ROLES = Object.values(MemberRole) as [MemberRole, ...MemberRole[]];
export const API_KEY_ROLES = Object.values(ApiKeyRole) as [ApiKeyRole, ...ApiKeyRole[]];
export const memberRoleSchema = z.enum(MEMBER_ROLES);
export const apiKeyRoleSchema = z.enum(API_KEY_ROLES);

/** The `error` a sign-in answers with when a rate limit or an address lockout refused it (429). */
export const SIGN_IN_REFUSED = "TooManyAttempts";

export const emailSchema = z.string().trim().toLowerCase().pipe(z.email({ error: "must be an e-mail address" }).max(EMAIL_MAX_LENGTH));
export const organizationNameSchema = requiredText(ORGANIZATION_NAME_MAX_LENGTH);

/** A token from an e-mailed link (verification, password reset, invitation). */
export const linkTokenSchema = z.string().trim().min(16).max(200);

/**
 * Async (the common-password list loads on first use): parse with parseAsync/safeParseAsync. With an
 * `invitationToken` (from the invitation's e-mailed link) the account joins that organisation instead
 * of creating one, so `organizationName` is required only without it.
 */
export const signUpBody = z
  .object({
    email: emailSchema,
    password: passwordSchema,
    name: z.string().trim().max(PERSON_NAME_MAX_LENGTH).nullish(),
    organizationName: organizationNameSchema.optional(),
    invitationToken: linkTokenSchema.optional(),
  })
  .superRefine(passwordNotEmail)
  .superRefine((input, ctx) => {
    if (!input.invitationToken && input.organizationName === undefined) {
      ctx.addIssue({ code: "custom", path: ["organizationName"], message: "is required" });
    }
  });
export type SignUpInput = z.output<typeof signUpBody>;

export const organizationBody = z.object({ name: organizationNameSchema });

export const inviteMemberBody = z.object({ email: emailSchema, role: memberRoleSchema.default("member") });
export const changeMemberRoleBody = z.object({ userId: idInput(), role: memberRoleSchema });
/**
 * Removing a member revokes the API keys they created: the caller names exactly those keys (as the
 * removal preview listed them), so nothing is revoked that the owner did not see.
 */
export const removeMemberBody = z.object({ userId: idInput(), revokeApiKeyIds: z.array(idInput()).max(1000) });

export const linkTokenInput = z.object({ token: linkTokenSchema });

/** Async (the password policy): parse with parseAsync. The e-mail rule is checked against the account. */
export const changePasswordBody = z.object({ currentPassword: z.string().min(1).max(1000), newPassword: passwordSchema });
export const requestPasswordResetBody = z.object({ email: emailSchema });
export const resetPasswordBody = z.object({ token: linkTokenSchema, newPassword: passwordSchema });

export const createApiKeyBody = z.object({
  name: requiredText(API_KEY_NAME_MAX_LENGTH),
  /** Never more than the creator's role allows (src/lib/permissions.ts); the form offers only those. */
  role: apiKeyRoleSchema.default("member"),
  expiresAt: instantSchema()
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
