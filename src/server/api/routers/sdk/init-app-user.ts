import { sdkProcedure } from "@/server/api/trpc/sdk-procedures";
import { initAppUser } from "@/server/domain/app-users/init-app-user";
import { clipboardSecrets } from "@/server/domain/attribution/clipboard-secret";
import { publicOrigin } from "@/server/http/public-origin";
import { requestClientIp } from "@/server/http/peer-address";
import { initAppUserInput, initAppUserOutput } from "./sdk.types";

export const initAppUserProcedure = sdkProcedure
  .meta({
    openapi: {
      method: "POST",
      path: "/sdk/init-app-user",
      tags: ["Client library"],
      summary: "Initialise the signed-in user",
      description:
        "Creates the app user if missing (with a referral code), marks them seen, replaces their attributes when sent, and binds the tracking id (or, without one, the referral code) the call passes; on a Mobile project's first launch, the install referrer, clipboard token, deep link or device fingerprint instead (see *Client library* and *Mobile projects* above). Idempotent. A token that binds nothing is no error: `attribution.reason` says why. With the publishable key and no valid `userHash`, an existing user is only read (nothing about them is written: attributes kept, not marked seen, nothing bound, no `referralTrackingId`): see *What the publishable key can do*.",
    },
  })
  .input(initAppUserInput)
  .output(initAppUserOutput)
  .mutation(({ ctx, input }) =>
    initAppUser(ctx.db, ctx.sdk.project, ctx.sdk.key, input, {
      publicOrigin: publicOrigin(ctx.config, ctx.headers),
      clientIp: requestClientIp(ctx.headers, ctx.config.trustedProxies),
      clipboardKeys: clipboardSecrets(ctx.config).all,
    }),
  );
