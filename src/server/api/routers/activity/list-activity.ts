import { z } from "zod";
import { ACTIVITY_TYPES, activityListQuery } from "@/lib/schemas/activity";
import { pageOf, projectIdInput } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listActivity } from "@/server/domain/activity/list-activity";

const activityItem = z
  .object({
    id: z.guid(),
    type: z.string().describe(`One of ${ACTIVITY_TYPES.join(", ")} (a later version may add types).`),
    description: z.string(),
    appUserId: z.guid().nullable().describe("The app user's uniqueId, or null for project-level entries."),
    trackingId: z.guid().nullable().describe("The tracking item a referral's entry is about; null for other entries (and for entries written before it was kept)."),
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
        trackingId: EXAMPLE.trackingId,
        createdAt: EXAMPLE.at,
      },
    ],
  });

export const listActivityProcedure = protectedProcedure
  .meta({
    permission: "referrals.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/activity",
      tags: ["Activity"],
      summary: "The project's activity feed, newest first",
      description:
        "Users created, referrals tracked, rewards granted or refused, events recorded; filtered by `type` and by `search`: a tracking id or an app user's client id " +
        "(exactly) selects that referral's entries, or the user's and their referrals'; other text, the entries whose description contains it. An unknown type is a 400 naming it.",
    },
  })
  .input(activityListQuery.extend(projectIdInput))
  .output(pageOf(activityItem).meta({ id: "ActivityPageResponse" }))
  .query(({ ctx, input: { projectId, ...search } }) => listActivity(ctx.db, ctx.organizationId, projectId, search));
