import { IDEMPOTENCY_DOC, idempotencyKeyHeader, idempotently } from "@/server/api/trpc/idempotency";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { createReferralLink } from "@/server/domain/referrals/create-referral-link";
import { publicOrigin } from "@/server/http/public-origin";
import { linkInput, linkOutput } from "./referral.types";

export const createReferralLinkProcedure = protectedProcedure
  .meta({ permission: "referrals.write",
    openapi: {
      method: "POST",
      path: "/public/projects/{projectId}/referrals/link",
      tags: ["Referrals"],
      summary: "Get a referrer's shareable link",
      description:
        "Web projects: the redirect link with the referral appended (400 when the project has none). Mobile projects: the hosted " +
        `landing page \`{origin}/r/{projectId}/{referralCode}[?rewardEventName=...]\`, which sends each visitor to the right store. ${IDEMPOTENCY_DOC}`,
      requestHeaders: idempotencyKeyHeader,
    },
  })
  .input(linkInput)
  .output(linkOutput)
  .mutation(({ ctx, input: { projectId, ...body } }) =>
    idempotently(ctx, `referrals.link:${projectId}`, body, () => createReferralLink(ctx.db, ctx.organizationId, projectId, body, publicOrigin(ctx.config, ctx.headers))),
  );
