import type { RewardEnvironment } from "@/server/domain/deliveries/insert-reward-deliveries";
import { invalidField } from "@/server/domain/errors";

export const EVENT_NAME_MAX_LENGTH = 200;
export const REWARD_ENVIRONMENTS = ["Sandbox", "Production"] as const satisfies readonly RewardEnvironment[];

/**
 * Event names are free-form and compared exactly (case-sensitive), so they are kept verbatim;
 * absent means "none", but a blank name is refused rather than silently meaning "any event".
 */
export function parseEventName(value: string | null | undefined, field: string): string | null {
  if (value == null) return null;
  if (value.trim() === "") throw invalidField(field, "blank", `${field} must not be blank; omit it instead.`);
  if (value.length > EVENT_NAME_MAX_LENGTH) {
    throw invalidField(field, "max_length", `${field} must be at most ${EVENT_NAME_MAX_LENGTH} characters.`);
  }
  return value;
}

/** Sandbox or Production, matched case-insensitively; absent reaches every enabled webhook once. */
export function parseEnvironment(value: string | null | undefined): RewardEnvironment | null {
  if (value == null) return null;
  const environment = REWARD_ENVIRONMENTS.find((e) => e.toLowerCase() === value.toLowerCase());
  if (!environment) throw invalidField("environment", "enum", "Environment must be Sandbox or Production.");
  return environment;
}

export function parseRequiredText(value: string | null | undefined, field: string): string {
  if (typeof value !== "string" || value.trim() === "") throw invalidField(field, "required", `${field} is required.`);
  return value;
}
