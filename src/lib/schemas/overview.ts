import { z } from "zod";
import { projectStatsSchema, statsRangeShape, checkRange, statsTotalsSchema } from "./stats";

/*
 * The dashboard's overviews (tRPC only): a project's, and the organisation's per-project figures.
 * The REST stats are their common part (projectStatsSchema).
 */

export const projectOverviewInput = z.object({ projectId: z.string().min(1).max(100), ...statsRangeShape }).superRefine(checkRange);
export const organizationOverviewInput = z.object(statsRangeShape).superRefine(checkRange);

export const projectOverviewSchema = projectStatsSchema.extend({
  /** The period of the same length that ends the day before `from`, to compare with. */
  previous: z.object({ from: z.iso.date(), to: z.iso.date(), totals: statsTotalsSchema }),
  appType: z.enum(["Web", "Mobile"]),
  rewardEvents: z.array(
    z.object({
      eventName: z.string(),
      claimed: z.number().int(),
      /** Rejected or recorded without a claim. */
      refused: z.number().int(),
      reasons: z.array(z.object({ reason: z.string(), count: z.number().int() })),
    }),
  ),
  /** Most rewards claimed in the range. */
  topReferrers: z.array(z.object({ uniqueId: z.string(), clientProvidedId: z.string(), rewards: z.number().int() })),
  webhookHealth: z.object({
    attempts: z.number().int(),
    succeeded: z.number().int(),
    /** Succeeded attempts over all attempts in the range; null without attempts. */
    successRate: z.number().nullable(),
    p50Ms: z.number().nullable(),
    p95Ms: z.number().nullable(),
    /** Deliveries now waiting for a retry after a failed attempt. */
    retrying: z.number().int(),
    /** Deliveries now Failed (dead-lettered or exhausted), waiting for a manual retry. */
    failedWaiting: z.number().int(),
    /** Webhooks switched off (by a person or by the service). */
    disabledWebhooks: z.number().int(),
  }),
});
export type ProjectOverview = z.output<typeof projectOverviewSchema>;

export const organizationOverviewSchema = z.object({
  from: z.iso.date(),
  to: z.iso.date(),
  projects: z.array(z.object({ projectId: z.string(), name: z.string(), appType: z.enum(["Web", "Mobile"]), totals: statsTotalsSchema })),
});
export type OrganizationOverview = z.output<typeof organizationOverviewSchema>;
