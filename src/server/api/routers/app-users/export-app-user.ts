import { z } from "zod";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { APP_USER_EXPORT_MAX_ENTRIES, exportAppUser } from "@/server/domain/app-users/export-app-user";
import { recordAudit } from "@/server/domain/audit/record-audit";
import { appUserExportSchema } from "./app-user-export.types";
import { appUserPathInput } from "./app-user.types";

export const exportAppUserProcedure = protectedProcedure
  .meta({
    permission: "appUsers.read",
    openapi: {
      method: "GET",
      path: "/public/projects/{projectId}/users/{uniqueId}/export",
      tags: ["App users"],
      summary: "Export everything held about an app user",
      description:
        "One JSON document (right of access and portability): the user record with its attributes, the referrals they gave and received, the reward history and reward events of those referrals, " +
        "the webhook deliveries whose stored body names them (with that body), the landing-page clicks attributed to them, where their client was seen from (kept only while a campaign's same-device rule is on) and their timeline. " +
        `Each list holds at most ${APP_USER_EXPORT_MAX_ENTRIES.toLocaleString("en-GB")} entries, the oldest, so the document stays bounded; a list that had more is named in \`truncated\` (read the rest with the paged lists). ` +
        "Each export is recorded in the audit log.",
    },
  })
  .input(z.object(appUserPathInput))
  .output(appUserExportSchema)
  .query(async ({ ctx, input }) => {
    const document = await exportAppUser(ctx.db, ctx.organizationId, input.projectId, input.uniqueId);
    await recordAudit(ctx.db, ctx.organizationId, auditActor(ctx), {
      action: "app_user.export",
      target: { type: "appUser", id: document.user.uniqueId },
      details: { projectId: input.projectId },
    });
    return document;
  });
