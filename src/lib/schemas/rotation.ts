import { z } from "zod";

/*
 * Rotation without downtime: a rotated credential (the `sk_` project secret, a webhook's secret, an
 * API key) may stay valid for a chosen overlap beside the new one, so clients can switch without a
 * gap. 0 (the default) ends it at once, as a rotation always did.
 */

export const OVERLAP_HOURS = [0, 1, 24] as const;
export type OverlapHours = (typeof OVERLAP_HOURS)[number];

export const overlapHoursSchema = z
  .literal(OVERLAP_HOURS, { error: `must be one of ${OVERLAP_HOURS.join(", ")}` })
  .default(0)
  .describe(
    "Hours the previous credential stays valid beside the new one: 0 (default: it stops at once), 1 or 24. During the overlap the previous project secret still authenticates, and webhook deliveries carry both signatures in `webhook-signature`.",
  )
  .meta({ examples: [24] });

export const rotateBody = z
  .object({ overlapHours: overlapHoursSchema })
  .meta({ title: "RotateRequest", description: "The body is optional: without it the previous credential stops at once.", examples: [{ overlapHours: 24 }] });

/** When the previous credential stops: null when it stops now (no overlap). */
export const overlapEnd = (overlapHours: number, now: Date): Date | null => (overlapHours > 0 ? new Date(now.getTime() + overlapHours * 3_600_000) : null);
