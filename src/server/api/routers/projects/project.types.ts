import { z } from "zod";
import { projectIdInput } from "@/lib/schemas/common";
import { APP_NAME_MAX_LENGTH, appTypeSchema, createProjectBody, updateProjectBody } from "@/lib/schemas/projects";

export const appDtoSchema = z
  .object({
    name: z.string().max(APP_NAME_MAX_LENGTH).nullable(),
    appStoreUrl: z.string().nullable(),
    playStoreUrl: z.string().nullable(),
    iconUrl: z.string().nullable(),
  })
  .meta({ id: "AppDto" });

export const projectDtoSchema = z
  .object({
    uniqueId: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    appType: appTypeSchema,
    referralRedirectLink: z.string().nullable(),
    campaignId: z.string().nullable(),
    projectSecretHint: z.string().describe("The first characters of the `sk_` project secret."),
    publishableKey: z.string().describe("The `pk_` publishable key for the web widget and mobile apps. Not a secret."),
    allowedOrigins: z.array(z.string()).describe("Browser origins allowed to call the client-library endpoints; empty allows none."),
    identityVerification: z.boolean().describe("init-app-user with the publishable key requires `userHash`."),
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

export const createProjectInput = createProjectBody;
export const updateProjectInput = updateProjectBody.extend(projectIdInput);

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
