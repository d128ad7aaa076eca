import { z } from "zod";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { listAppUserEvents } from "@/server/domain/activity/list-app-user-events";
import { appUserEventSchema, listAppUserEventsInput } from "./app-user.types";

export const listAppUserEventsProcedure = protectedProcedure
  .meta({ permission: "appUsers.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/users/{uniqueId}/events",
      tags: ["App users"],
      summary: "List an app user's events, newest first",
      description: "The user's timeline (created, referrals tracked and rewarded, events reported), at most `limit` entries.",
    },
  })
  .input(listAppUserEventsInput)
  .output(z.array(appUserEventSchema))
  .query(({ ctx, input: { projectId, ...rest } }) => listAppUserEvents(ctx.db, ctx.organizationId, projectId, rest));
