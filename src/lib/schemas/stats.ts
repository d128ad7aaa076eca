import { z } from "zod";
import { CLIENT_PROVIDED_ID_MAX_LENGTH } from "./app-users";
import { EXAMPLE } from "./examples";

/*
 * The insight figures of a project over a range of UTC days: the REST stats and leaderboard, and the
 * dashboard's overview, which adds reward events, top referrers and webhook health.
 */

/** The range when none is given: the last 30 days, today included. */
export const DEFAULT_RANGE_DAYS = 30;
/** The longest range, in days (both ends included). */
export const MAX_RANGE_DAYS = 366;
/** The ranges the overview offers besides a custom one. */
export const RANGE_PRESETS = [7, 30, 90] as const;

export const DEFAULT_LEADERBOARD_LIMIT = 10;
export const MAX_LEADERBOARD_LIMIT = 100;

const DAY_MS = 86_400_000;

/** A `YYYY-MM-DD` day as the instant it starts (UTC). */
export const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`);
/** The `YYYY-MM-DD` UTC day of an instant. */
export const dayOf = (at: Date) => at.toISOString().slice(0, 10);
/** The day `n` days after `day` (before, for a negative `n`). */
export const addDays = (day: string, n: number) => dayOf(new Date(dayStart(day).getTime() + n * DAY_MS));
/** Days from `from` to `to`, both included. */
export const daysBetween = (from: string, to: string) => Math.round((dayStart(to).getTime() - dayStart(from).getTime()) / DAY_MS) + 1;

export type StatsRange = { from: string; to: string };

/**
 * The range a query names: both ends as given; one end alone with the other a default (`to` today,
 * or `from` 29 days before `to`); neither, the last 30 days.
 */
export function resolveRange({ from, to }: Partial<StatsRange>, today = dayOf(new Date())): StatsRange {
  const end = to ?? today;
  return { from: from ?? addDays(end, -(DEFAULT_RANGE_DAYS - 1)), to: end };
}

const day = z.iso.date({ error: "must be a date as YYYY-MM-DD" });

/**
 * `from` and `to` (UTC days, both included). A `to` before `from`, or more than MAX_RANGE_DAYS days,
 * is an issue on the parameter the caller gave (on `to` when both were given).
 */
export const statsRangeShape = {
  from: day
    .describe(`The first day (UTC, \`YYYY-MM-DD\`), included. Default: ${DEFAULT_RANGE_DAYS - 1} days before \`to\`.`)
    .meta({ examples: ["2026-11-01"] })
    .optional(),
  to: day.describe("The last day (UTC, `YYYY-MM-DD`), included. Default: today.").meta({ examples: ["2026-11-30"] }).optional(),
};

export function checkRange(input: Partial<StatsRange>, ctx: z.RefinementCtx) {
  // A malformed end has its own issue already.
  if (![input.from, input.to].every((d) => d === undefined || day.safeParse(d).success)) return;
  const { from, to } = resolveRange(input);
  const path = input.to !== undefined ? ["to"] : ["from"];
  if (to < from) {
    ctx.addIssue({ code: "custom", path, message: input.to !== undefined ? "must not be before `from`" : "must not be after today when `to` is not given" });
  } else if (daysBetween(from, to) > MAX_RANGE_DAYS) {
    ctx.addIssue({ code: "too_big", origin: "number", maximum: MAX_RANGE_DAYS, inclusive: true, path, message: `the range must be at most ${MAX_RANGE_DAYS} days` });
  }
}

export const statsRangeQuery = z.object(statsRangeShape).superRefine(checkRange);

export const statsTotalsSchema = z
  .object({
    clicks: z
      .number()
      .int()
      .min(0)
      .describe(
        "Clicks on referral links: visits of the hosted landing page (Mobile projects). A referral tracked any other way (the widget, REST, the client library) is no click, so a Web project counts 0.",
      ),
    tracked: z.number().int().min(0).describe("Referrals tracked (arrivals through a referral link) in the range."),
    completed: z.number().int().min(0).describe("Referrals completed in the range: rewards claimed."),
    failed: z.number().int().min(0).describe("Referrals that failed in the range (an eligibility check refused their reward event)."),
    deliveriesSucceeded: z.number().int().min(0).describe("Webhook deliveries created in the range and delivered."),
    deliveriesFailed: z.number().int().min(0).describe("Webhook deliveries created in the range that failed (dead-lettered or out of attempts)."),
    referralsDelivered: z
      .number()
      .int()
      .min(0)
      .describe("Referrals with at least one webhook delivery created in the range that succeeded, each counted once however many webhooks it went to (the funnel's last step; `deliveriesSucceeded` counts deliveries)."),
  })
  .meta({ id: "StatsTotals" });

export const statsDaySchema = z
  .object({
    date: z.iso.date().describe("The UTC day."),
    tracked: z.number().int().min(0),
    completed: z.number().int().min(0),
  })
  .meta({ id: "StatsDay" });

export const projectStatsSchema = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    totals: statsTotalsSchema,
    daily: z.array(statsDaySchema).describe("One entry per day of the range, oldest first, days without activity included (zeros)."),
  })
  .meta({
    id: "ProjectStats",
    examples: [
      {
        from: "2026-11-29",
        to: "2026-11-30",
        totals: { clicks: 120, tracked: 40, completed: 12, failed: 3, deliveriesSucceeded: 24, deliveriesFailed: 0, referralsDelivered: 12 },
        daily: [
          { date: "2026-11-29", tracked: 18, completed: 5 },
          { date: "2026-11-30", tracked: 22, completed: 7 },
        ],
      },
    ],
  });
export type ProjectStats = z.output<typeof projectStatsSchema>;

export const leaderboardQuery = z.object({
  limit: z
    .number()
    .int()
    .min(1)
    .max(MAX_LEADERBOARD_LIMIT)
    .default(DEFAULT_LEADERBOARD_LIMIT)
    .describe(`How many referrers, 1 to ${MAX_LEADERBOARD_LIMIT}.`)
    .meta({ examples: [DEFAULT_LEADERBOARD_LIMIT] }),
});

const leaderboardEntryExample = {
  clientProvidedId: EXAMPLE.referrer.clientProvidedId,
  uniqueId: EXAMPLE.referrer.uniqueId,
  successfulReferrals: 14,
  totalReferralsGiven: 31,
  milestone: "Gold",
};

export const leaderboardEntrySchema = z
  .object({
    clientProvidedId: z.string().max(CLIENT_PROVIDED_ID_MAX_LENGTH),
    uniqueId: z.guid().describe("The app user's `uniqueId`."),
    successfulReferrals: z.number().int().min(1).describe("Referrals of theirs that completed (rewards claimed)."),
    totalReferralsGiven: z.number().int().min(0).describe("Arrivals through their referral link."),
    milestone: z.string().nullable().describe("The highest campaign milestone they reached (its name when reached), or null."),
  })
  .meta({
    id: "LeaderboardEntry",
    examples: [leaderboardEntryExample],
  });
export type LeaderboardEntry = z.output<typeof leaderboardEntrySchema>;

export const leaderboardSchema = z
  .object({ items: z.array(leaderboardEntrySchema).describe("Best first: most successful referrals, then most referrals given.") })
  .meta({ id: "Leaderboard", examples: [{ items: [leaderboardEntryExample] }] });
