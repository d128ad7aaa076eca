import type { AppType } from "@/lib/trpc-types";

/** Fields of the project forms, as the API names them (so validation errors land on them). */
export const PROJECT_FIELDS = [
  "name",
  "description",
  "appType",
  "referralRedirectLink",
  "allowedOrigins",
  "identityVerification",
  "app",
  "app.name",
  "app.appStoreUrl",
  "app.playStoreUrl",
  "app.iconUrl",
] as const;

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
/** Empty inputs clear a field rather than sending "" (which the URL rules would reject). */
const optional = (form: FormData, name: string) => text(form, name) || null;

export function readAppDetails(form: FormData) {
  return {
    name: optional(form, "app.name"),
    appStoreUrl: optional(form, "app.appStoreUrl"),
    playStoreUrl: optional(form, "app.playStoreUrl"),
    // No form has it (the icon card uploads the icon): left as it is, not cleared.
  };
}

export function readProjectForm(form: FormData, appType: AppType) {
  return {
    name: text(form, "name"),
    description: optional(form, "description"),
    referralRedirectLink: optional(form, "referralRedirectLink"),
    ...(appType === "Mobile" ? { app: readAppDetails(form) } : {}),
  };
}

/**
 * The origin a project's own site most likely has: the redirect link's, which is where referral links
 * land and so where the widget runs first. Null when there is none or it is already allowed.
 */
export function suggestedOrigin(redirectLink: string | null, allowed: readonly string[]): string | null {
  if (!redirectLink || !URL.canParse(redirectLink)) return null;
  const origin = new URL(redirectLink).origin;
  return allowed.includes(origin) ? null : origin;
}

/** One origin per line; blank lines are ignored. */
export function readOrigins(form: FormData): string[] {
  return text(form, "allowedOrigins")
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}
