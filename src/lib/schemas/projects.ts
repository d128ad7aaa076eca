import { z } from "zod";
import { AppType } from "@/generated/prisma/enums";
import { httpUrl, jsonBoolean, redirectLink, requiredText } from "./common";
import { EXAMPLE } from "./examples";

export const PROJECT_NAME_MAX_LENGTH = 100;
export const PROJECT_DESCRIPTION_MAX_LENGTH = 1000;
export const APP_NAME_MAX_LENGTH = 200;
export const MAX_ALLOWED_ORIGINS = 50;

export const APP_TYPES = Object.values(AppType) as [AppType, ...AppType[]];
export const appTypeSchema = z.enum(APP_TYPES);

/** The hosts a store link may point at: the landing page sends visitors there, so nowhere else. */
export const APP_STORE_HOSTS = ["apps.apple.com", "itunes.apple.com"] as const;
export const PLAY_STORE_HOSTS = ["play.google.com"] as const;

/** A link on one of `hosts`, else an issue with the rule `rule` (named in the 400 problem). */
const storeUrl = (hosts: readonly string[], rule: string, store: string) =>
  httpUrl().superRefine((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (url && !hosts.includes(url.hostname.toLowerCase())) {
      ctx.addIssue({ code: "custom", message: `must be a ${store} link, on ${hosts.join(" or ")}`, params: { rule } });
    }
  });

/** App details (the spec's AppDto) as a client writes them; every field may be cleared with null. */
export const appDetailsInput = z.object({
  name: z.string().trim().max(APP_NAME_MAX_LENGTH).nullish(),
  appStoreUrl: storeUrl(APP_STORE_HOSTS, "app_store_host", "App Store")
    .nullish()
    .describe(`The app's App Store page: https on ${APP_STORE_HOSTS.join(" or ")} only (rule \`app_store_host\`).`),
  playStoreUrl: storeUrl(PLAY_STORE_HOSTS, "play_store_host", "Google Play")
    .nullish()
    .describe(`The app's Google Play page: https on ${PLAY_STORE_HOSTS.join(" or ")} only (rule \`play_store_host\`).`),
  iconUrl: httpUrl()
    .nullish()
    .describe(
      "Only the icon this project uploaded (`PUT /projects/{projectId}/app/icon` sets it): a request may send it back unchanged or `null` to remove it, nothing else (rule `uploaded_icon`).",
    ),
});
export type AppDetailsInput = z.output<typeof appDetailsInput>;

/**
 * A browser origin: scheme, host and optional port, nothing else. Stored as the browser sends it in
 * `Origin` (no trailing slash), because the client-library endpoints compare the two exactly.
 */
export const originSchema = httpUrl()
  .refine((v) => URL.canParse(v) && new URL(v).origin === v.replace(/\/$/, ""), {
    message: "must be an origin: scheme, host and optional port, no path",
  })
  .transform((v) => new URL(v).origin);

const fields = {
  name: requiredText(PROJECT_NAME_MAX_LENGTH),
  description: z.string().trim().max(PROJECT_DESCRIPTION_MAX_LENGTH).nullish(),
  referralRedirectLink: redirectLink().nullish().describe("The service appends `?referralCode=...`: no query or fragment of its own."),
  allowedOrigins: z
    .array(originSchema)
    .max(MAX_ALLOWED_ORIGINS)
    .describe("Browser origins allowed to call the client-library endpoints, e.g. `https://shop.example.com`. Empty: no browser may call them (servers and apps, which send no `Origin`, still can)."),
  identityVerification: jsonBoolean().describe(
    "When true, init-app-user with the publishable key must carry `userHash`, the hex HMAC-SHA256 of `userId` keyed with the `sk_` secret.",
  ),
  app: appDetailsInput.nullish().describe("App details; Mobile projects. `null` clears them."),
};

/*
 * Request bodies (without the path's ids): see app-users.ts.
 */
export const createProjectBody = z
  .object({
    ...fields,
    appType: appTypeSchema.default("Web").describe("Set at creation; cannot change afterwards."),
    allowedOrigins: fields.allowedOrigins.optional(),
    identityVerification: fields.identityVerification.optional(),
  })
  .meta({
    title: "CreateProjectRequest",
    examples: [{ name: "Shop web", description: "The web shop", appType: "Web", referralRedirectLink: EXAMPLE.redirectLink }],
  });

export const updateProjectBody = z
  .object({
    ...fields,
    name: fields.name.optional(),
    appType: appTypeSchema.optional().describe("Accepted only when equal to the current value: appType cannot change."),
    allowedOrigins: fields.allowedOrigins.optional(),
    identityVerification: fields.identityVerification.optional(),
  })
  .meta({ title: "UpdateProjectRequest", examples: [{ name: "Shop web (EU)", allowedOrigins: ["https://shop.example.com"] }] });

export type CreateProjectInput = z.output<typeof createProjectBody>;
export type UpdateProjectInput = z.output<typeof updateProjectBody>;
