import { createHmac } from "node:crypto";
import { webhookSigningKey } from "@/lib/webhook-secrets";

/**
 * Standard Webhooks signature (https://www.standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
 * "{id}.{timestamp}.{body}". The key is the decoded bytes of a `whsec_` secret, as the spec says, and
 * the UTF-8 bytes of any other (client-chosen) secret.
 */
export function signatureFor(deliveryId: string, timestampSeconds: number, body: string, secret: string): string {
  const mac = createHmac("sha256", webhookSigningKey(secret))
    .update(`${deliveryId}.${timestampSeconds}.${body}`, "utf8")
    .digest("base64");
  return `v1,${mac}`;
}

/**
 * Every header of a delivery request. The timestamp is per attempt (receivers reject stale ones);
 * the delivery id is stable across attempts, so receivers can deduplicate on it.
 */
export function deliveryHeaders(input: {
  deliveryId: string;
  timestampSeconds: number;
  body: string;
  secret: string;
}): Record<string, string> {
  const signature = signatureFor(input.deliveryId, input.timestampSeconds, input.body, input.secret);
  return {
    "Content-Type": "application/json",
    Authorization: `Bearer ${input.secret}`,
    "webhook-id": input.deliveryId,
    "webhook-timestamp": String(input.timestampSeconds),
    "webhook-signature": signature,
    "X-Service-Signature": signature,
    "X-Service-Delivery-Id": input.deliveryId,
  };
}
