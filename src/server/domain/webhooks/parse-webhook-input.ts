import type { WebhookEnvironment } from "@/generated/prisma/client";
import type { UrlRules } from "@/server/config";
import { invalidField } from "@/server/domain/errors";
import { encryptSecret, secretHint } from "./webhook-secret";
import { validateWebhookUrl } from "./webhook-url";

export const WEBHOOK_ENVIRONMENTS = ["Sandbox", "Production", "Both"] as const satisfies readonly WebhookEnvironment[];
export const MAX_NAME_LENGTH = 200;
export const MAX_SECRET_LENGTH = 512;

export type CreateWebhookInput = {
  name: string;
  url: string;
  secret: string;
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

/**
 * The secret travels as `Authorization: Bearer <secret>`, so it must be a valid header value that
 * survives intact: visible ASCII only (no spaces, which proxies may trim or fold).
 */
function parseSecret(value: unknown): string {
  if (typeof value !== "string" || value === "") throw invalidField("secret", "required", "secret is required.");
  if (value.length > MAX_SECRET_LENGTH) throw invalidField("secret", "max_length", `secret must be at most ${MAX_SECRET_LENGTH} characters.`);
  if (!/^[\x21-\x7e]+$/.test(value)) {
    throw invalidField("secret", "charset", "secret may contain visible ASCII characters only (no spaces).");
  }
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
export async function parseWebhookWrite(input: UpdateWebhookInput, rules: UrlRules): Promise<WebhookWrite> {
  const write: WebhookWrite = {};
  if (input.name !== undefined) write.name = parseName(input.name);
  if (input.url !== undefined) write.url = await validateWebhookUrl(input.url, rules);
  if (input.secret !== undefined) {
    const secret = parseSecret(input.secret);
    write.secretEncrypted = encryptSecret(secret);
    write.secretHint = secretHint(secret);
  }
  if (input.enabled !== undefined) write.enabled = parseEnabled(input.enabled);
  if (input.environment !== undefined) write.environment = parseEnvironment(input.environment);
  return write;
}

/** Creation: name, url and secret are required; enabled defaults to true and environment to Both. */
export async function parseWebhookCreate(input: CreateWebhookInput, rules: UrlRules) {
  for (const field of ["name", "url", "secret"] as const) {
    if (input[field] === undefined || input[field] === null) throw invalidField(field, "required", `${field} is required.`);
  }
  const write = await parseWebhookWrite(input, rules);
  return {
    name: write.name!,
    url: write.url!,
    secretEncrypted: write.secretEncrypted!,
    secretHint: write.secretHint!,
    enabled: write.enabled ?? true,
    environment: write.environment ?? "Both",
  };
}
