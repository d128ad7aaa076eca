import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { TYPELESS_EVENT, type webhooks } from "./openapi.ts";

/** A delivery's body, with its event type (the X-Service-Event-Type the document declares for it) as `type`. */
type EventOf<W> = W extends {
  post: { parameters: { header: { "X-Service-Event-Type": infer Type } }; requestBody: { content: { "application/json": infer Body } } };
}
  ? Body extends { type: Type }
    ? Body
    : Body & { type: Type }
  : never;

/**
 * Every event the document's `webhooks` section declares, one union discriminated by `type`
 * (`if (event.type === "reward.revoked") ...`). reward.granted's body is the spec's, without a `type`
 * field: verifyWebhook adds it.
 */
export type WebhookEvent = { [Name in keyof webhooks]: EventOf<webhooks[Name]> }[keyof webhooks];
/** An event type, e.g. "reward.granted". */
export type WebhookEventType = WebhookEvent["type"];

/** Node's `req.headers`, a Fetch `Headers`, or a plain object. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

const SIGNED_HEADERS = ["webhook-id", "webhook-timestamp", "webhook-signature"] as const;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * The HMAC key the service signs with: a Standard Webhooks secret (`whsec_` + base64 of 24 to 64
 * bytes, what the service generates) is its decoded bytes; any secret you chose is its UTF-8 bytes.
 */
function webhookFor(secret: string): Webhook {
  const encoded = secret.startsWith("whsec_") ? secret.slice(6) : null;
  const bytes = encoded !== null && BASE64.test(encoded) ? (encoded.length / 4) * 3 - (encoded.match(/=+$/)?.[0].length ?? 0) : 0;
  return bytes >= 24 && bytes <= 64 ? new Webhook(secret) : new Webhook(new TextEncoder().encode(secret), { format: "raw" });
}

function header(headers: WebhookHeaders, name: string): string {
  if (headers instanceof Headers) return headers.get(name) ?? "";
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  const value = key === undefined ? undefined : headers[key];
  return (Array.isArray(value) ? value[0] : value) ?? "";
}

/**
 * Checks a delivery's Standard Webhooks signature (`webhook-signature` over `webhook-id`,
 * `webhook-timestamp` and the raw body, with a 5-minute timestamp tolerance) and returns its event,
 * typed by its `type`.
 * Pass the body exactly as received (before any JSON parsing). Throws WebhookVerificationError when
 * the signature or timestamp does not hold: answer such a request 400 and ignore it.
 */
export function verifyWebhook(rawBody: string | Uint8Array, headers: WebhookHeaders, secret: string): WebhookEvent {
  const payload = typeof rawBody === "string" ? rawBody : new TextDecoder().decode(rawBody);
  const signed = Object.fromEntries(SIGNED_HEADERS.map((name) => [name, header(headers, name)]));
  const body = webhookFor(secret).verify(payload, signed) as Record<string, unknown>;
  // Told by the signed body alone: the X-Service-Event-Type header is not signed.
  return (typeof body.type === "string" ? body : { ...body, type: TYPELESS_EVENT }) as WebhookEvent;
}

export { WebhookVerificationError };
