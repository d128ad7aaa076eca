import { z } from "zod";
import { pageOf, pagingInput, projectIdInput } from "@/server/api/schemas";
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
  .meta({
    openapi: { method: "GET", path: "/public/projects/{projectId}/activity", tags: ["Activity"], summary: "The project's activity feed, newest first" },
  })
  .input(z.object({ ...projectIdInput, ...pagingInput }))
  .output(pageOf(activityItem).meta({ id: "ActivityPageResponse" }))
  .query(({ ctx, input: { projectId, ...paging } }) => listActivity(ctx.db, ctx.organizationId, projectId, paging));
