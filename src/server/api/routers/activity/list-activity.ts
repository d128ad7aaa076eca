import { z } from "zod";
import { pageOf, pagingQuery, projectIdInput } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listActivity } from "@/server/domain/activity/list-activity";

const activityItem = z
  .object({
    id: z.guid(),
    type: z.string().describe("user_created, referral_tracked, reward_claimed, reward_rejected, event_recorded, ..."),
    description: z.string(),
    appUserId: z.guid().nullable().describe("The app user's uniqueId, or null for project-level entries."),
    createdAt: z.iso.datetime(),
  })
  .meta({
    id: "ActivityItem",
    examples: [
      {
        id: EXAMPLE.activityId,
        type: "referral_tracked",
        description: "user-2002 arrived through user-1001's referral link (qualifying event: first_purchase).",
        appUserId: EXAMPLE.referrer.uniqueId,
        createdAt: EXAMPLE.at,
      },
    ],
  });

export const listActivityProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    openapi: { method: "GET", path: "/public/projects/{projectId}/activity", tags: ["Activity"], summary: "The project's activity feed, newest first", description: "Users created, referrals tracked, rewards granted or refused, events recorded." },
  })
  .input(pagingQuery.extend(projectIdInput))
  .output(pageOf(activityItem).meta({ id: "ActivityPageResponse" }))
  .query(({ ctx, input: { projectId, ...paging } }) => listActivity(ctx.db, ctx.organizationId, projectId, paging));
