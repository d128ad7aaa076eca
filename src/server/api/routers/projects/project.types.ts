import { z } from "zod";
import { httpUrl, projectIdInput, redirectLink, requiredText } from "@/lib/schemas/common";

export const appTypeSchema = z.enum(["Web", "Mobile"]);

export const appDtoSchema = z
  .object({
    name: z.string().max(200).nullable(),
    appStoreUrl: z.string().nullable(),
    playStoreUrl: z.string().nullable(),
    iconUrl: z.string().nullable(),
  })
  .meta({ id: "AppDto" });

const appInput = z.object({
  name: z.string().trim().max(200).nullish(),
  appStoreUrl: httpUrl().nullish(),
  playStoreUrl: httpUrl().nullish(),
  iconUrl: httpUrl().nullish(),
});

const originSchema = httpUrl().refine((v) => new URL(v).origin === v.replace(/\/$/, ""), {
  message: "must be an origin: scheme, host and optional port, no path",
});

export const projectDtoSchema = z
  .object({
    uniqueId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    appType: appTypeSchema,
    referralRedirectLink: z.string().nullable(),
    campaignId: z.string().nullable(),
    projectSecretHint: z.string().describe("The first characters of the `sk_` project secret."),
    allowedOrigins: z.array(z.string()).describe("Browser origins allowed to call the client-library endpoints; empty allows any."),
    app: appDtoSchema.nullable().describe("App details; Mobile projects only."),
    createdAt: z.string(),
    updatedAt: z.string(),
  })
  .meta({ id: "ProjectDto" });

export const projectSecretSchema = z
  .object({
    projectSecret: z.string().describe("The `sk_` project secret, shown only in this response."),
    warning: z.string(),
  })
  .meta({ id: "ProjectSecretDto" });

export const projectCreatedSchema = projectDtoSchema.extend(projectSecretSchema.shape).meta({ id: "ProjectCreatedDto" });

export const createProjectInput = z.object({
  name: requiredText(100),
  description: z.string().trim().max(1000).nullish(),
  appType: appTypeSchema.default("Web"),
  referralRedirectLink: redirectLink().nullish(),
  allowedOrigins: z.array(originSchema).max(50).optional(),
  app: appInput.nullish(),
});

export const updateProjectInput = z.object({
  ...projectIdInput,
  name: requiredText(100).optional(),
  description: z.string().trim().max(1000).nullish(),
  appType: appTypeSchema.optional().describe("Accepted only when equal to the current value: appType cannot change."),
  referralRedirectLink: redirectLink().nullish(),
  allowedOrigins: z.array(originSchema).max(50).optional(),
  app: appInput.nullish(),
});

export const projectIdOnlyInput = z.object(projectIdInput);
