import { z } from "zod";
import { projectIdInput, withPath } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { APP_NAME_MAX_LENGTH, appTypeSchema, createProjectBody, updateProjectBody } from "@/lib/schemas/projects";

export const appDtoSchema = z
  .object({
    name: z.string().max(APP_NAME_MAX_LENGTH).nullable(),
    appStoreUrl: z.url().nullable(),
    playStoreUrl: z.url().nullable(),
    iconUrl: z.url().nullable(),
  })
  .meta({ id: "AppDto" });

const projectExample = {
  uniqueId: EXAMPLE.projectId,
  name: "Shop web",
  description: "The web shop",
  appType: "Web",
  referralRedirectLink: EXAMPLE.redirectLink,
  campaignId: EXAMPLE.campaignId,
  projectSecretHint: "sk_3f9a",
  allowedOrigins: ["https://shop.example.com"],
  app: null,
  createdAt: EXAMPLE.at,
  updatedAt: EXAMPLE.at,
} as const;
const secretExample = {
  projectSecret: "sk_3f9aQ2vX8mN4kL7pR1tY6wE0zB5cH2jD9gF3sA8uV4xK",
  warning: "Store this secret now: it is shown only once.",
} as const;

export const projectDtoSchema = z
  .object({
    uniqueId: z.uuid(),
    name: z.string(),
    description: z.string().nullable(),
    appType: appTypeSchema,
    referralRedirectLink: z.url().nullable(),
    campaignId: z.uuid().nullable(),
    projectSecretHint: z.string().describe("The first characters of the `sk_` project secret."),
    allowedOrigins: z.array(z.url()).describe("Browser origins allowed to call the client-library endpoints; empty allows any."),
    app: appDtoSchema.nullable().describe("App details; Mobile projects only."),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: "ProjectDto", examples: [projectExample] });

export const projectSecretSchema = z
  .object({
    projectSecret: z.string().startsWith("sk_").describe("The `sk_` project secret, shown only in this response."),
    warning: z.string(),
  })
  .meta({ id: "ProjectSecretDto", examples: [secretExample] });

export const projectCreatedSchema = projectDtoSchema
  .extend(projectSecretSchema.shape)
  .meta({ id: "ProjectCreatedDto", examples: [{ ...projectExample, ...secretExample }] });

export const createProjectInput = createProjectBody;
export const updateProjectInput = withPath(updateProjectBody, projectIdInput);

export const projectIdOnlyInput = z.object(projectIdInput);
