import {
  defaultNewUserExperience,
  defaultReferrerExperience,
  newUserExperienceSchema,
  referrerExperienceSchema,
  type NewUserExperience,
  type NewUserExperiencePatch,
  type ReferrerExperience,
  type ReferrerExperiencePatch,
} from "@/lib/schemas/campaigns";

const REFERRER_SECTIONS = ["triggerButton", "modal", "theme"] as const;

export function mergeReferrerExperience(base: ReferrerExperience, patch: ReferrerExperiencePatch = {}): ReferrerExperience {
  return {
    triggerButton: { ...base.triggerButton, ...definedOnly(patch.triggerButton) },
    modal: { ...base.modal, ...definedOnly(patch.modal) },
    theme: { ...base.theme, ...definedOnly(patch.theme) },
  };
}

export function mergeNewUserExperience(base: NewUserExperience, patch: NewUserExperiencePatch = {}): NewUserExperience {
  return { ...base, ...definedOnly(patch) };
}

/**
 * The stored configuration, read defensively: JSON written by an older version may miss fields or
 * hold values that are no longer allowed, and the widget must still get a complete, valid config.
 * A section that does not validate falls back to its defaults as a whole.
 */
export function readReferrerExperience(json: unknown): ReferrerExperience {
  const stored = asObject(json);
  const read = {} as Record<(typeof REFERRER_SECTIONS)[number], unknown>;
  for (const section of REFERRER_SECTIONS) {
    const schema = referrerExperienceSchema.shape[section];
    const parsed = schema.safeParse({ ...defaultReferrerExperience[section], ...asObject(stored[section]) });
    read[section] = parsed.success ? parsed.data : defaultReferrerExperience[section];
  }
  return read as ReferrerExperience;
}

export function readNewUserExperience(json: unknown): NewUserExperience {
  const parsed = newUserExperienceSchema.safeParse({ ...defaultNewUserExperience, ...asObject(json) });
  return parsed.success ? parsed.data : defaultNewUserExperience;
}

const asObject = (value: unknown): Record<string, unknown> =>
  value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A key sent as undefined means "not sent", never "clear". */
const definedOnly = <T extends object>(value: T | undefined): Partial<T> =>
  Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
