import { z } from "zod";
import { pageOf, pagingQuery, projectIdInput } from "@/lib/schemas/common";
import { protectedProcedure } from "@/server/api/trpc";
import { listActivity } from "@/server/domain/activity/list-activity";

const activityItem = z
  .object({
    id: z.string(),
    type: z.string().describe("user_created, referral_tracked, reward_claimed, reward_rejected, event_recorded, ..."),
    description: z.string(),
    appUserId: z.string().nullable().describe("The app user's uniqueId, or null for project-level entries."),
    createdAt: z.string(),
  })
  .meta({ id: "ActivityItem" });

export const listActivityProcedure = protectedProcedure
  .meta({ permission: "referrals.read",
    openapi: { method: "GET", path: "/public/projects/{projectId}/activity", tags: ["Activity"], summary: "The project's activity feed, newest first" },
  })
  .input(pagingQuery.extend(projectIdInput))
  .output(pageOf(activityItem).meta({ id: "ActivityPageResponse" }))
  .query(({ ctx, input: { projectId, ...paging } }) => listActivity(ctx.db, ctx.organizationId, projectId, paging));
