import { idInput, projectIdInput, withPath } from "@/lib/schemas/common";
import { EXAMPLE } from "@/lib/schemas/examples";
import { createPortalSessionBody, portalSessionSchema } from "@/lib/schemas/portal";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { createPortalSession } from "@/server/domain/portal/portal-sessions";
import { publicOrigin } from "@/server/http/public-origin";

export const createPortalSessionProcedure = protectedProcedure
  .meta({
    permission: "appUsers.write",
    status: 201,
    secret: true,
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/users/{uniqueId}/portal-sessions",
      tags: ["App users"],
      summary: "Open the referrer's own page",
      description:
        "Mints a short-lived, read-only portal session for this one app user: `url` is the hosted page of their referrals (link, totals, friends, rewards, milestones), `token` the credential in it. Default 1 hour, at most 24 (`expiresInSeconds`). Nothing is stored: rotating the project secret ends every session of the project, and erasing the user ends theirs. See *The referrer's own page*.",
    },
  })
  .input(withPath(createPortalSessionBody, { ...projectIdInput, uniqueId: idInput().describe("The app user's uniqueId.").meta({ examples: [EXAMPLE.referrer.uniqueId] }) }))
  .output(portalSessionSchema)
  .mutation(({ ctx, input: { projectId, uniqueId, expiresInSeconds } }) =>
    createPortalSession(ctx.db, ctx.config, ctx.organizationId, projectId, uniqueId, { expiresInSeconds, publicOrigin: publicOrigin(ctx.config, ctx.headers) }),
  );

