import { z } from "zod";
import { DeliveryStatus } from "@/generated/prisma/enums";
import { caseInsensitive, idInput, pagingInput } from "./common";
import { EXAMPLE } from "./examples";
import { eventNameSchema } from "./referrals";
import { createdRange, inOrder, NAMES_A_REFERRAL, searchTerm } from "./search";

/*
 * The support console's view of deliveries: the filter that selects them (the project's delivery
 * search, its bulk retry, and anything else that works on "the deliveries this filter selects", such
 * as an export), and the words for what happened to one.
 */

export const DELIVERY_STATUSES = Object.values(DeliveryStatus) as [DeliveryStatus, ...DeliveryStatus[]];

/** Shown instead of a secret in a request as it was sent (the `Authorization` header's value). */
export const REDACTED = "[redacted]";

/** The event name of a test delivery (POST .../webhooks/{webhookId}/test), sent with `X-Service-Test: true`. */
export const TEST_EVENT_NAME = "referloop.test";

/** Why a Failed delivery failed. */
export const DELIVERY_FAILURES = {
  dead_lettered: "Dead-lettered: the receiver gave an answer that retrying cannot change (a permanent 4xx, a redirect), or nothing could be sent",
  exhausted: "Exhausted: every attempt failed (5 in all)",
} as const;
export type DeliveryFailure = keyof typeof DELIVERY_FAILURES;
export const DELIVERY_FAILURE_CODES = Object.keys(DELIVERY_FAILURES) as [DeliveryFailure, ...DeliveryFailure[]];

/** A bulk retry selecting more than this many deliveries is refused: narrow the filter. */
export const BULK_RETRY_MAX = 10_000;

/**
 * The search counts its matches up to this many: beyond, `totalCount` says this and `totalCountExact`
 * false. An exact count reads one index entry per match, every call: 1,000,000 of them in a large
 * project, several times the 50 ms the search has. Equal to BULK_RETRY_MAX, so a count that is exact
 * also says whether a bulk retry could take the whole selection.
 */
export const DELIVERY_COUNT_MAX = BULK_RETRY_MAX;

/**
 * The filter of the project's deliveries; every part optional, and all of them together (AND). Shared
 * by the list (a query) and the bulk retry (a JSON body): its fields are text only, which both read
 * alike. `to` is exclusive.
 */
export const deliveryFilterSchema = z
  .object({
    search: searchTerm(
      `Matches one of: a delivery id or its short form (the first 8 characters, as the tables show it), ${NAMES_A_REFERRAL}. Surrounding spaces are ignored.`,
    ),
    status: caseInsensitive(DELIVERY_STATUSES)
      .describe("Pending (an attempt is due), Succeeded or Failed (any case).")
      .meta({ examples: ["Failed"] })
      .optional(),
    webhookId: idInput().describe("Only this webhook's deliveries.").meta({ examples: [EXAMPLE.webhookId] }).optional(),
    event: eventNameSchema.describe("The trigger event name, exactly (case-sensitive).").meta({ examples: [EXAMPLE.eventName] }).optional(),
    ...createdRange("Deliveries"),
  })
  .refine(...inOrder);

export type DeliveryFilter = z.output<typeof deliveryFilterSchema>;

export const deliveryListQuery = deliveryFilterSchema.safeExtend(pagingInput);

export const bulkRetryBody = deliveryFilterSchema.meta({
  title: "RetryDeliveriesRequest",
  description: `The filter of the deliveries to retry, as the list takes it. The Failed and Pending ones it selects are sent now; at most ${BULK_RETRY_MAX.toLocaleString("en-GB")}.`,
  examples: [{ status: "Failed", webhookId: EXAMPLE.webhookId, from: EXAMPLE.at }],
});
