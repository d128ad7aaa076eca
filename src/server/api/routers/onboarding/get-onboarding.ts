import { z } from "zod";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { getOnboarding } from "@/server/domain/onboarding/get-onboarding";

/** The dashboard's set-up checklist (no REST operation: it describes the dashboard's own walk). */
export const getOnboardingProcedure = protectedProcedure
  .meta({ permission: "projects.read" })
  .input(z.object({ projectId: z.string().min(1).max(100).optional() }).optional())
  .query(({ ctx, input }) => getOnboarding(ctx.db, ctx.organizationId, input?.projectId));
