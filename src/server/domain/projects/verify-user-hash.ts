import { createHmac, timingSafeEqual } from "node:crypto";
import { DomainError } from "@/server/domain/errors";
import { configuredKeys, decryptSecret, type SecretKeys } from "@/server/domain/webhooks/webhook-secret";
import type { ProjectKeyKind, SdkProject } from "./authenticate-project-key";

/** What the client's backend computes: hex HMAC-SHA256 of the user id, keyed with the `sk_` secret. */
export const userHashOf = (secret: string, userId: string) => createHmac("sha256", secret).update(userId, "utf8").digest("hex");

/**
 * Identity verification: `userHash` must be the HMAC of `userId` under the project secret, so a page
 * cannot initialise (or read the referral code of) a user its backend did not sign. Throws a 401
 * domain error otherwise. Compared in constant time.
 */
export function verifyUserHash(project: SdkProject, userId: string, userHash: string | undefined, keys: SecretKeys = configuredKeys()) {
  if (userHash === undefined) {
    throw new DomainError(
      "unauthorized",
      "This project requires identity verification: send userHash, the hex HMAC-SHA256 of userId keyed with the project secret, computed by your backend.",
    );
  }
  // Enabling is refused without it (see updateProject); a key change that lost it is a server fault.
  const secret = project.secretEncrypted === null ? null : decryptSecret(project.secretEncrypted, keys);
  if (secret === null) throw new DomainError("unavailable", "Identity verification cannot check userHash right now: the project secret is unreadable.");
  // During a rotation's overlap the backend may still sign with the previous secret.
  const previous = project.previousSecretEncrypted === null ? null : decryptSecret(project.previousSecretEncrypted, keys);
  const given = Buffer.from(userHash, "hex");
  const matches = (key: string) => {
    const expected = Buffer.from(userHashOf(key, userId), "hex");
    return given.length === expected.length && timingSafeEqual(given, expected);
  };
  if (!matches(secret) && !(previous !== null && matches(previous))) {
    throw new DomainError("unauthorized", "userHash does not match userId: compute it with the current project secret, over the exact userId sent.");
  }
}

/**
 * Whether a client-library call speaks for its user: the `sk_` secret (the client's backend) always
 * does; the publishable key only with a valid `userHash`. With the project's identityVerification on,
 * a publishable call without one is refused (verifyUserHash); with it off it goes on unverified (see
 * initAppUser for what that may do). A `userHash` sent is checked whenever the project can check it,
 * so a wrong one is a 401, never silently ignored.
 */
export function speaksForUser(project: SdkProject, keyKind: ProjectKeyKind, userId: string, userHash: string | undefined, keys: SecretKeys = configuredKeys()): boolean {
  if (keyKind === "secret") return true;
  if (project.identityVerification) {
    verifyUserHash(project, userId, userHash, keys);
    return true;
  }
  // Off, and a secret issued before the service kept it (or one no configured key reads): nothing to check with.
  if (userHash === undefined || project.secretEncrypted === null || decryptSecret(project.secretEncrypted, keys) === null) return false;
  verifyUserHash(project, userId, userHash, keys);
  return true;
}
