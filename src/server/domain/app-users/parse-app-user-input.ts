import { invalidField } from "@/server/domain/errors";

export const CLIENT_PROVIDED_ID_MAX_LENGTH = 255;
export const MAX_ATTRIBUTES = 50;
export const ATTRIBUTE_KEY_MAX_LENGTH = 100;
export const ATTRIBUTE_VALUE_MAX_LENGTH = 1000;

export type AppUserAttributes = Record<string, string>;

/** The client's own id is matched exactly (never trimmed or case-folded); only blank is refused. */
export function parseClientProvidedId(value: unknown, field = "clientProvidedId"): string {
  if (typeof value !== "string" || value.trim() === "") throw invalidField(field, "required", `${field} is required.`);
  if (value.length > CLIENT_PROVIDED_ID_MAX_LENGTH) {
    throw invalidField(field, "max_length", `${field} must be at most ${CLIENT_PROVIDED_ID_MAX_LENGTH} characters.`);
  }
  return value;
}

/** A flat string -> string map; bounded so a user row stays small and searchable. */
export function parseAttributes(value: unknown): AppUserAttributes {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw invalidField("attributes", "type", "attributes must be an object of string values.");
  }
  const entries = Object.entries(value);
  if (entries.length > MAX_ATTRIBUTES) {
    throw invalidField("attributes", "max_items", `attributes may hold at most ${MAX_ATTRIBUTES} entries.`);
  }
  for (const [key, item] of entries) {
    const field = `attributes.${key}`;
    if (key === "" || key.length > ATTRIBUTE_KEY_MAX_LENGTH) {
      throw invalidField(field, "key_length", `Attribute names must be 1 to ${ATTRIBUTE_KEY_MAX_LENGTH} characters.`);
    }
    if (typeof item !== "string") throw invalidField(field, "type", `Attribute "${key}" must be a string.`);
    if (item.length > ATTRIBUTE_VALUE_MAX_LENGTH) {
      throw invalidField(field, "max_length", `Attribute "${key}" must be at most ${ATTRIBUTE_VALUE_MAX_LENGTH} characters.`);
    }
  }
  return Object.fromEntries(entries) as AppUserAttributes;
}
