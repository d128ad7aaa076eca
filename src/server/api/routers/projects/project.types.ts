import { z } from "zod";
import { rotateBody } from "@/lib/schemas/rotation";
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
  publishableKey: "pk_7Hq2Lw9Xc4Rt8Mz1Kv6Bn3Ds",
  allowedOrigins: ["https://shop.example.com"],
  identityVerification: false,
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
    uniqueId: z.guid(),
    name: z.string(),
    description: z.string().nullable(),
    appType: appTypeSchema,
    referralRedirectLink: z.url().nullable(),
    campaignId: z.guid().nullable(),
    projectSecretHint: z.string().describe("The first characters of the `sk_` project secret."),
    publishableKey: z.string().startsWith("pk_").describe("The `pk_` publishable key for the web widget and mobile apps. Not a secret."),
    allowedOrigins: z.array(z.url()).describe("Browser origins allowed to call the client-library endpoints; empty allows none."),
    identityVerification: z.boolean().describe("init-app-user with the publishable key requires `userHash`."),
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

export const projectSecretRotatedSchema = projectSecretSchema
  .extend({
    previousSecretExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe("Until when the previous secret still authenticates (the overlap asked for); null when it stopped at once."),
  })
  .meta({ id: "ProjectSecretRotatedDto", examples: [{ ...secretExample, previousSecretExpiresAt: EXAMPLE.later }] });

export const rotateProjectSecretInput = withPath(rotateBody, projectIdInput);

export const projectCreatedSchema = projectDtoSchema
  .extend(projectSecretSchema.shape)
  .meta({ id: "ProjectCreatedDto", examples: [{ ...projectExample, ...secretExample }] });

export const createProjectInput = createProjectBody;
export const updateProjectInput = withPath(updateProjectBody, projectIdInput);

export const projectIdOnlyInput = z.object(projectIdInput);

/**
 * The icon upload: REST sends the image's bytes as the body (the REST wrapper hands them over as
 * `icon`, see Meta.binaryBody); the dashboard sends multipart form data (`projectId`, `icon`), which
 * tRPC passes through as FormData. Whether the bytes are an image is judged by the domain
 * (checkIcon), by content.
 */
export const setIconInput = z.preprocess(
  (value) => (value instanceof FormData ? fromForm(value) : value),
  z.object({
    ...projectIdInput,
    icon: z.instanceof(Uint8Array).meta({ override: { type: "string", contentMediaType: "application/octet-stream" } }),
  }),
);

async function fromForm(form: FormData) {
  const icon = form.get("icon");
  return { projectId: form.get("projectId"), icon: icon instanceof Blob ? new Uint8Array(await icon.arrayBuffer()) : icon };
}
