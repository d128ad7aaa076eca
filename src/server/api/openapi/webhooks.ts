import { z } from "zod";
import { EXAMPLE } from "@/lib/schemas/examples";
import { rewardDeliverySchema } from "@/lib/schemas/webhooks";
import { MAX_ATTEMPTS, PERMANENT_STATUSES } from "@/server/domain/deliveries/retry-policy";
import { DEFAULT_ATTEMPT_TIMEOUT_MS } from "@/server/domain/deliveries/perform-attempt";

/** The reward delivery's body as a JSON Schema component (from its one schema, src/lib/schemas/webhooks.ts). */
export function rewardDeliveryComponent() {
  // Its meta id makes zod put the schema under $defs and refer to it: take it from there.
  const json = z.toJSONSchema(rewardDeliverySchema, { target: "draft-2020-12" }) as { $defs?: Record<string, Record<string, unknown>> };
  const { id: _, ...schema } = json.$defs?.RewardDelivery ?? {};
  return schema;
}

const header = (name: string, description: string, schema: Record<string, unknown>, example: string) => ({
  name,
  in: "header",
  required: true,
  description,
  schema: { type: "string", ...schema },
  example,
});

const SIGNATURE = { pattern: "^v1,[A-Za-z0-9+/]+={0,2}$" };

/**
 * The reward delivery as an OpenAPI 3.1 `webhooks` entry: what Referloop sends to each matching webhook
 * of the campaign, so receivers can generate its type and check its headers.
 */
export const rewardWebhook = {
  rewardDelivery: {
    post: {
      operationId: "rewardDelivery",
      summary: "A reward was granted (sent to your webhook URL)",
      description:
        "Sent once per granted reward to every enabled webhook of the campaign whose environment scope matches, " +
        `retried up to ${MAX_ATTEMPTS} attempts in all. The same delivery may arrive more than once: dedupe on \`trackingId\` ` +
        "(or the delivery id). Verify `webhook-signature` (Standard Webhooks) before trusting the body; see Webhook deliveries in the API description.",
      tags: ["Webhooks"],
      parameters: [
        header("Authorization", "`Bearer <webhook secret>`.", { pattern: "^Bearer \\S+$" }, "Bearer whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw9xQe"),
        header("X-Service-Delivery-Id", "The delivery id: the same on every retry of one delivery.", { format: "uuid" }, EXAMPLE.deliveryId),
        header("webhook-id", "The delivery id again (Standard Webhooks).", { format: "uuid" }, EXAMPLE.deliveryId),
        header("webhook-timestamp", "Unix seconds of this attempt; reject values more than 5 minutes old.", { pattern: "^\\d+$" }, "1793108487"),
        header("webhook-signature", 'Standard Webhooks signature: `v1,` + base64 HMAC-SHA256 of `"{webhook-id}.{webhook-timestamp}.{raw body}"`.', SIGNATURE, "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="),
        header("X-Service-Signature", "The same signature under the spec's header name.", SIGNATURE, "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4="),
      ],
      requestBody: {
        required: true,
        content: {
          "application/json": {
            schema: { $ref: "#/components/schemas/RewardDelivery" },
            example: rewardDeliverySchema.meta()?.examples?.[0],
          },
        },
      },
      responses: {
        "2XX": { description: "Received: any 2xx counts as delivered." },
        default: {
          description: `Anything else is a failed attempt: ${[...PERMANENT_STATUSES].join(", ")} dead-letter the delivery at once; other statuses, timeouts (${DEFAULT_ATTEMPT_TIMEOUT_MS / 1000} s) and network errors are retried with backoff.`,
        },
      },
    },
  },
};
