import { createHmac, createSecretKey, type KeyObject } from "node:crypto";
import { REDACTED, TEST_EVENT_NAME } from "@/lib/schemas/deliveries";
import { EVENT_TYPE_HEADER } from "@/lib/schemas/webhook-events";
import { webhookSigningKey } from "@/lib/webhook-secrets";

/** Sent as every delivery's User-Agent. */
export const DELIVERY_USER_AGENT = "Referloop-Webhooks/1";

/**
 * Standard Webhooks signature (https://www.standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
 * "{id}.{timestamp}.{body}". The key is the decoded bytes of a `whsec_` secret, as the spec says, and
 * the UTF-8 bytes of any other (client-chosen) secret.
 */
export function signatureFor(deliveryId: string, timestampSeconds: number, body: string, secret: string): string {
  const mac = createHmac("sha256", signingKeyObject(secret))
    .update(`${deliveryId}.${timestampSeconds}.${body}`, "utf8")
    .digest("base64");
  return `v1,${mac}`;
}

/** Each secret's HMAC key, made once: decoding and importing it at every signature was a few percent of a reward's CPU. */
const signingKeys = new Map<string, KeyObject>();
const SIGNING_KEYS_MAX = 1_000;

function signingKeyObject(secret: string): KeyObject {
  let key = signingKeys.get(secret);
  if (!key) {
    if (signingKeys.size >= SIGNING_KEYS_MAX) signingKeys.delete(signingKeys.keys().next().value!);
    signingKeys.set(secret, (key = createSecretKey(webhookSigningKey(secret))));
  }
  return key;
}

/** What one attempt's request was made of, beyond its delivery: kept with the attempt to show it again. */
export type SentRequest = { url: string; timestampSeconds: number; signature: string };

/**
 * Every header of a delivery request, in the order sent. The timestamp is per attempt (receivers
 * reject stale ones); the delivery id is stable across attempts, so receivers can deduplicate on it.
 * Built the same way to send a request and to show one again later: then `authorization` is the
 * redaction marker and `signature` the one kept with the attempt.
 */
export function deliveryHeaders(input: {
  deliveryId: string;
  timestampSeconds: number;
  signature: string;
  authorization: string;
  body: string;
  test: boolean;
  /** Default: a test event's type when `test`, else a reward's. */
  eventType?: string;
}): Record<string, string> {
  return {
    "Content-Type": "application/json",
    Authorization: input.authorization,
    "webhook-id": input.deliveryId,
    "webhook-timestamp": String(input.timestampSeconds),
    "webhook-signature": input.signature,
    "X-Service-Signature": input.signature,
    "X-Service-Delivery-Id": input.deliveryId,
    [EVENT_TYPE_HEADER]: input.eventType ?? (input.test ? TEST_EVENT_NAME : "reward.granted"),
    // A test event says so, so a receiver can tell it from a reward before crediting anyone.
    ...(input.test ? { "X-Service-Test": "true" } : {}),
    "User-Agent": DELIVERY_USER_AGENT,
    "Content-Length": String(Buffer.byteLength(input.body, "utf8")),
  };
}

/**
 * The headers of a request to send, signed with the webhook's secret, and during a rotation's overlap
 * with the previous one too: Standard Webhooks lets `webhook-signature` carry several, space separated,
 * and a receiver accepts the request when any one verifies. `Authorization` carries the current secret.
 */
export function signedDeliveryHeaders(input: { deliveryId: string; timestampSeconds: number; body: string; secret: string; previous?: string | null; test: boolean; eventType?: string }) {
  const signature = [input.secret, ...(input.previous ? [input.previous] : [])]
    .map((secret) => signatureFor(input.deliveryId, input.timestampSeconds, input.body, secret))
    .join(" ");
  return { signature, headers: deliveryHeaders({ ...input, signature, authorization: `Bearer ${input.secret}` }) };
}

/** The headers of a request as sent, with the secret (the Authorization value) replaced by the redaction marker. */
export const redactedDeliveryHeaders = (input: { deliveryId: string; timestampSeconds: number; signature: string; body: string; test: boolean; eventType?: string }) =>
  deliveryHeaders({ ...input, authorization: REDACTED });
