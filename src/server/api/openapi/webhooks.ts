import { z } from "zod";
import { EXAMPLE } from "@/lib/schemas/examples";
import { rewardDeliverySchema } from "@/lib/schemas/webhooks";
import {
  EVENT_TYPE_HEADER,
  referralTrackedDeliverySchema,
  rewardHeldDeliverySchema,
  rewardRevokedDeliverySchema,
  WEBHOOK_EVENT_DESCRIPTIONS,
} from "@/lib/schemas/webhook-events";
import { MAX_ATTEMPTS, PERMANENT_STATUSES } from "@/server/domain/deliveries/retry-policy";
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from "@/server/domain/deliveries/perform-attempt";

/** A delivery body's JSON Schema component, from its one zod schema (its meta id names the component). */
function deliveryComponent(schema: z.ZodType, id: string) {
  // Its meta id makes zod put the schema under $defs and refer to it: take it from there.
  const json = z.toJSONSchema(schema, { target: "draft-2020-12" }) as { $defs?: Record<string, Record<string, unknown>> };
  const { id: _, ...component } = json.$defs?.[id] ?? {};
  return component;
}

/** The reward delivery's body as a JSON Schema component (from its one schema, src/lib/schemas/webhooks.ts). */
export const rewardDeliveryComponent = () => deliveryComponent(rewardDeliverySchema, "RewardDelivery");

/** Every event of the catalogue with a body described here: its `webhooks` key, its schema and when it is sent. */
const CATALOGUE = [
  { key: "rewardRevoked", type: "reward.revoked", schema: rewardRevokedDeliverySchema, component: "RewardRevokedDelivery" },
  { key: "rewardHeld", type: "reward.held", schema: rewardHeldDeliverySchema, component: "RewardHeldDelivery" },
  { key: "referralTracked", type: "referral.tracked", schema: referralTrackedDeliverySchema, component: "ReferralTrackedDelivery" },
] as const;

/** The components of the events' bodies, by name. */
export const eventDeliveryComponents = () => Object.fromEntries(CATALOGUE.map(({ schema, component }) => [component, deliveryComponent(schema, component)]));

const header = (name: string, description: string, schema: Record<string, unknown>, example: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string", ...schema },
  example,
});

const SIGNATURE = { pattern: "^v1,[A-Za-z0-9+/]+={0,2}$" };

/** The headers of every delivery, its type's last. */
const headers = (type: string) => [
  header("Authorization", "`Bearer <webhook secret>`.", { pattern: "^Bearer \\S+$" }, "Bearer whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9xQe"),
  header("X-Service-Delivery-Id", "The delivery id: the same on every retry of one delivery.", { format: "uuid" }, EXAMPLE.deliveryId),
  header("webhook-id", "The delivery id again (Standard Webhooks).", { format: "uuid" }, EXAMPLE.deliveryId),
  header("webhook-timestamp", "Unix seconds of this attempt; reject values more than 5 minutes old.", { pattern: "^\\d+$" }, "1793108487"),
  header("webhook-signature", 'Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `"{webhook-id}.{webhook-timestamp}.{raw body}"`.', SIGNATURE, "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="),
  header("X-Service-Signature", "The same signature under the spec's header name.", SIGNATURE, "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="),
  header(EVENT_TYPE_HEADER, `The event type: \`${type}\` (a test event's is \`referloop.test\`).`, { const: type }, type),
];

const RESPONSES = {
  "2XX": { description: "Received: any 2xx counts as delivered." },
  default: {
    description: `Anything else is a failed attempt: ${[...PERMANENT_STATUSES].join(", ")} dead-letter the delivery at once; other statuses, timeouts (${DEFAULT_ATTEMPT_TIMEOUT_MS / 1000} s) and network errors are retried with backoff.`,
  },
};

const entry = (operationId: string, type: string, summary: string, description: string, component: string, example: unknown) => ({
  post: {
    operationId,
    summary,
    description: `${description} Sent to every enabled webhook of the project that subscribes to \`${type}\` (its \`events\`) and whose environment scope matches, retried up to ${MAX_ATTEMPTS} attempts in all. Verify \`webhook-signature\` (Standard Webhooks) before trusting the body; see Webhook deliveries in the API description.`,
    tags: ["Webhooks"],
    parameters: headers(type),
    requestBody: { required: true, content: { "application/json": { schema: { $ref: `#/components/schemas/${component}` }, example } } },
    responses: RESPONSES,
  },
});

/**
 * The catalogue's events as OpenAPI 3.1 `webhooks` entries: what Referloop sends to each subscribed
 * webhook, so receivers can generate each body's type and check its headers. `rewardDelivery` is
 * `reward.granted`, the spec's reward delivery (its body has no `type`: the header says it).
 */
export const rewardWebhook = {
  rewardDelivery: entry(
    "rewardDelivery",
    "reward.granted",
    "A reward was granted (sent to your webhook URL)",
    "`reward.granted`: sent once per granted reward (the spec's body, unchanged: its type is in the header only). The same delivery may arrive more than once: dedupe on `trackingId` (or the delivery id).",
    "RewardDelivery",
    rewardDeliverySchema.meta()?.examples?.[0],
  ),
  ...Object.fromEntries(
    CATALOGUE.map(({ key, type, schema, component }) => [
      key,
      entry(key, type, WEBHOOK_EVENT_DESCRIPTIONS[type], `\`${type}\`: ${WEBHOOK_EVENT_DESCRIPTIONS[type]} Once per referral; the body leads with its \`type\`.`, component, schema.meta()?.examples?.[0]),
    ]),
  ),
};
