import { z } from "zod";
import { emptyOutput } from "@/lib/schemas/common";
import { auditActor } from "@/server/api/trpc/audit-actor";
import { protectedProcedure } from "@/server/api/trpc/procedures";
import { eraseAppUser } from "@/server/domain/app-users/erase-app-user";
import { audited } from "@/server/domain/audit/audited";
import { appUserPathInput } from "./app-user.types";

export const eraseAppUserProcedure = protectedProcedure
  .meta({
    permission: "appUsers.write",
    openapi: {
      method: "DELETE",
      path: "/public/projects/{projectId}/users/{uniqueId}",
      tags: ["App users"],
      summary: "Erase an app user",
      description:
        "Erases the user at their request (right to erasure). Afterwards the user's GET is 404 and the client id may be used again for a new user. " +
        "Their attributes, referral code and link are gone. Tracking items and reward history that named them keep their status and the other party's counters, " +
        "with the erased party null and `referrerErased`/`refereeErased` true; a `Pending` item of theirs becomes `Failed` with reason `user_erased` (leaving the review queue if held). " +
        "Stored webhook delivery bodies of their referrals, and inbound provider events that named them, have their client id replaced by `[erased]`, as does the `referralCode` of items they referred; landing-page clicks attributed to them or on their link are deleted. " +
        "Stored answers of `Idempotency-Key` requests that name them are deleted: the same request with the same key then acts as new, not as a replay of the erased user. Audit details that named them (a bulk retry's `search`) read `[erased]`. " +
        "Nothing is sent to webhooks. The audit log records the erasure by the user's `uniqueId` only.",
      successDescription: "Erased. The body is empty.",
    },
  })
  .input(z.object(appUserPathInput))
  .output(emptyOutput)
  .mutation(async ({ ctx, input }) => {
    await audited(
      ctx.db,
      ctx.organizationId,
      auditActor(ctx),
      (tx) => eraseAppUser(tx, ctx.organizationId, input.projectId, input.uniqueId),
      // The uniqueId only: the log must not keep what the erasure removed.
      (erased) => ({
        action: "app_user.erase",
        target: { type: "appUser", id: erased.id },
        details: {
          projectId: input.projectId,
          failedReferrals: erased.failedReferrals,
          redactedDeliveries: erased.redactedDeliveries,
          redactedInboundEvents: erased.redactedInboundEvents,
        },
      }),
    );
  });
