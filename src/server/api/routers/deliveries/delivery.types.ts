import { z } from "zod";
import { cappedPageOf, idInput, projectIdInput, withPath } from "@/lib/schemas/common";
import { bulkRetryBody, DELIVERY_COUNT_MAX, DELIVERY_FAILURE_CODES, DELIVERY_FAILURES, DELIVERY_STATUSES, deliveryListQuery, REDACTED } from "@/lib/schemas/deliveries";
import { EXAMPLE } from "@/lib/schemas/examples";

export const deliveryExample = {
  deliveryId: EXAMPLE.deliveryId,
  webhookId: EXAMPLE.webhookId,
  webhookName: "Rewards to billing",
  trackingId: EXAMPLE.trackingId,
  referrerId: EXAMPLE.referrer.clientProvidedId,
  refereeId: EXAMPLE.referee.clientProvidedId,
  referrerUniqueId: EXAMPLE.referrer.uniqueId,
  refereeUniqueId: EXAMPLE.referee.uniqueId,
  event: EXAMPLE.eventName,
  status: "Failed",
  attempts: 5,
  lastAttemptAt: EXAMPLE.later,
  nextAttemptAt: null,
  lastHttpStatus: 503,
  lastError: "HTTP 503",
  failure: "exhausted",
  test: false,
  retryable: true,
  bodiesPurgedAt: null,
  recoveredAt: null,
  createdAt: EXAMPLE.at,
} as const;

export const deliveryDtoSchema = z
  .object({
    deliveryId: z.guid().describe("Stable across attempts: sent as `X-Service-Delivery-Id` and `webhook-id`."),
    webhookId: z.guid(),
    webhookName: z.string(),
    trackingId: z.guid().nullable().describe("The referral tracking id; null for a test event."),
    referrerId: z.string().nullable().describe("The referrer's clientProvidedId; null for a test event."),
    refereeId: z.string().nullable().describe("The referee's clientProvidedId; null for a test event."),
    referrerUniqueId: z.guid().nullable(),
    refereeUniqueId: z.guid().nullable(),
    event: z.string().describe("The trigger event name (`referloop.test` for a test event)."),
    status: z.enum(DELIVERY_STATUSES).describe("Pending: an attempt is due at `nextAttemptAt`; Succeeded; Failed (see `failure`)."),
    attempts: z.number().int().min(0).describe("Attempts made so far, manual retries included."),
    lastAttemptAt: z.iso.datetime().nullable(),
    nextAttemptAt: z.iso.datetime().nullable().describe("When the next attempt is due; null when none is."),
    lastHttpStatus: z.number().int().nullable().describe("The status of the latest attempt's answer; null when it got none."),
    lastError: z.string().nullable().describe("Why the latest attempt failed."),
    failure: z
      .enum(DELIVERY_FAILURE_CODES)
      .nullable()
      .describe(`Why a Failed delivery failed; null unless Failed. ${DELIVERY_FAILURE_CODES.map((c) => `\`${c}\`: ${DELIVERY_FAILURES[c]}.`).join(" ")}`),
    test: z.boolean().describe("A test event (sent with `X-Service-Test: true`)."),
    retryable: z.boolean().describe("True when the retry call accepts it now."),
    bodiesPurgedAt: z.iso.datetime().nullable().describe("When its request and response bodies were purged at the end of their retention; null while kept."),
    recoveredAt: z.iso
      .datetime()
      .nullable()
      .describe("When its webhook's recovery (`autoRecover`) sent it again after the receiver came back; null if it never did. Recovery sends a delivery at most once."),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "DeliveryDto", examples: [deliveryExample] });

/** The list envelope with the count capped (DELIVERY_COUNT_MAX): a search of a large project stays fast. */
export const deliveryPageSchema = cappedPageOf(deliveryDtoSchema, {
  id: "DeliveryPage",
  max: DELIVERY_COUNT_MAX,
  things: "deliveries",
  narrow: "narrow the filter for an exact count (or a bulk retry)",
});

const requestExample = {
  url: EXAMPLE.webhookUrl,
  headers: {
    "Content-Type": "application/json",
    Authorization: REDACTED,
    "webhook-id": EXAMPLE.deliveryId,
    "webhook-timestamp": "1794645687",
    "webhook-signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    "X-Service-Signature": "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
    "X-Service-Delivery-Id": EXAMPLE.deliveryId,
    "User-Agent": "Referloop-Webhooks/1",
    "Content-Length": "310",
  },
  body: JSON.stringify({
    event: EXAMPLE.eventName,
    referrerId: EXAMPLE.referrer.clientProvidedId,
    refereeId: EXAMPLE.referee.clientProvidedId,
    rewardClaimedAt: EXAMPLE.at,
    trackingId: EXAMPLE.trackingId,
    rewardStatus: "Completed",
    projectId: EXAMPLE.projectId,
    projectName: "Shop web",
    campaignId: EXAMPLE.campaignId,
  }),
};

const attemptExample = {
  id: EXAMPLE.logId,
  attemptNumber: 5,
  at: EXAMPLE.later,
  success: false,
  request: requestExample,
  response: { status: 503, durationMs: 84, body: '{"error":"maintenance"}' },
  error: "HTTP 503",
  durationMs: 84,
};

export const deliveryAttemptSchema = z
  .object({
    id: z.guid().describe("The log entry's id."),
    attemptNumber: z.number().int().min(1),
    at: z.iso.datetime().describe("When the attempt finished."),
    success: z.boolean(),
    request: z
      .object({
        url: z.string(),
        headers: z.record(z.string(), z.string()).describe(`Every header sent, in order; the \`Authorization\` value is replaced by \`${REDACTED}\`.`),
        body: z.string().nullable().describe("The exact body sent; null once purged at the end of its retention."),
      })
      .nullable()
      .describe("What was sent; null when nothing was (the target was refused before sending, or the worker stopped mid-attempt)."),
    response: z
      .object({
        status: z.number().int(),
        durationMs: z.number().int().min(0),
        body: z.string().nullable().describe("The first KiB of the response body; null when empty, or once purged."),
      })
      .nullable()
      .describe("What came back; null when no HTTP answer came (see `error`)."),
    error: z.string().nullable().describe("Why the attempt failed: the network error or timeout, the refusal, or the HTTP status."),
    durationMs: z.number().int().min(0),
  })
  .meta({ id: "DeliveryAttemptDto", examples: [attemptExample] });

export const deliveryDetailSchema = z
  .object({
    delivery: deliveryDtoSchema,
    attempts: z.array(deliveryAttemptSchema).describe("Every attempt, first to last."),
  })
  .meta({ id: "DeliveryDetailDto", examples: [{ delivery: deliveryExample, attempts: [attemptExample] }] });

export const deliveryIdInput = { deliveryId: idInput().describe("The delivery's id (`deliveryId`).").meta({ examples: [EXAMPLE.deliveryId] }) };

export const listDeliveriesInput = deliveryListQuery.safeExtend(projectIdInput);
export const deliveryPathInput = z.object({ ...projectIdInput, ...deliveryIdInput });
export const bulkRetryInput = withPath(bulkRetryBody, projectIdInput);

export const retriedDeliverySchema = z
  .object({
    deliveryId: z.guid(),
    webhookId: z.guid(),
    status: z.literal("Pending"),
    nextAttemptAt: z.iso.datetime().describe("Now: the attempt is sent at once."),
  })
  .meta({ id: "RetriedDeliveryDto", examples: [{ deliveryId: EXAMPLE.deliveryId, webhookId: EXAMPLE.webhookId, status: "Pending", nextAttemptAt: EXAMPLE.later }] });

export const bulkRetryResultSchema = z
  .object({
    count: z.number().int().min(0).describe("Deliveries queued to be sent now."),
    requestedAt: z.iso.datetime().describe("When they were queued: the start of their new attempts."),
  })
  .meta({ id: "BulkRetryDto", examples: [{ count: 42, requestedAt: EXAMPLE.later }] });
