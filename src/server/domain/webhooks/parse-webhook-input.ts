import type { WebhookEnvironment } from "@/generated/prisma/client";
import { invalidField } from "@/server/domain/errors";
import { checkWebhookSecret, generateWebhookSecret, MAX_WEBHOOK_SECRET_LENGTH } from "./standard-webhook-secret";
import { encryptSecret, secretHint } from "./webhook-secret";
import { validateWebhookUrl } from "./webhook-url";

export const WEBHOOK_ENVIRONMENTS = ["Sandbox", "Production", "Both"] as const satisfies readonly WebhookEnvironment[];
export const MAX_NAME_LENGTH = 200;
export const MAX_SECRET_LENGTH = MAX_WEBHOOK_SECRET_LENGTH;

export type CreateWebhookInput = {
  name: string;
  url: string;
  /** Omitted on creation: the service generates a Standard Webhooks secret. */
  secret?: string;
  enabled?: boolean;
  environment?: WebhookEnvironment;
};
export type UpdateWebhookInput = Partial<CreateWebhookInput>;

/** The columns an input sets; the secret only ever leaves this module encrypted. */
export type WebhookWrite = {
  name?: string;
  url?: string;
  secretEncrypted?: string;
  secretHint?: string;
  enabled?: boolean;
  environment?: WebhookEnvironment;
};

function parseName(value: unknown): string {
  const name = typeof value === "string" ? value.trim() : "";
  if (!name) throw invalidField("name", "required", "name is required.");
  if (name.length > MAX_NAME_LENGTH) throw invalidField("name", "max_length", `name must be at most ${MAX_NAME_LENGTH} characters.`);
  return name;
}

function parseSecret(value: unknown): string {
  if (typeof value !== "string" || value === "") throw invalidField("secret", "required", "secret is required.");
  const violation = checkWebhookSecret(value);
  if (violation) throw invalidField("secret", violation.rule, violation.message);
  return value;
}

function parseEnabled(value: unknown): boolean {
  if (typeof value !== "boolean") throw invalidField("enabled", "boolean", "enabled must be true or false.");
  return value;
}

function parseEnvironment(value: unknown): WebhookEnvironment {
  if (!WEBHOOK_ENVIRONMENTS.includes(value as WebhookEnvironment)) {
    throw invalidField("environment", "enum", `environment must be one of ${WEBHOOK_ENVIRONMENTS.join(", ")}.`);
  }
  return value as WebhookEnvironment;
}

/**
 * Checks the fields present (absent and undefined are "leave unchanged") and turns them into
 * columns. The API's zod schema checks the same rules first; the domain does not rely on it.
 */
export async function parseWebhookWrite(input: UpdateWebhookInput): Promise<WebhookWrite> {
  const write: WebhookWrite = {};
  if (input.name !== undefined) write.name = parseName(input.name);
  if (input.url !== undefined) write.url = await validateWebhookUrl(input.url);
  if (input.secret !== undefined) {
    const secret = parseSecret(input.secret);
    write.secretEncrypted = encryptSecret(secret);
    write.secretHint = secretHint(secret);
  }
  if (input.enabled !== undefined) write.enabled = parseEnabled(input.enabled);
  if (input.environment !== undefined) write.environment = parseEnvironment(input.environment);
  return write;
}

/**
 * Creation: name and url are required; without a secret one is generated (returned as `secret`,
 * the one time it is seen in clear); enabled defaults to true and environment to Both.
 */
export async function parseWebhookCreate(input: CreateWebhookInput) {
  for (const field of ["name", "url"] as const) {
    if (input[field] === undefined || input[field] === null) throw invalidField(field, "required", `${field} is required.`);
  }
  const secret = input.secret ?? generateWebhookSecret();
  const write = await parseWebhookWrite({ ...input, secret });
  return {
    secret,
    name: write.name!,
    url: write.url!,
    secretEncrypted: write.secretEncrypted!,
    secretHint: write.secretHint!,
    enabled: write.enabled ?? true,
    environment: write.environment ?? "Both",
  };
}
