/** Most calls one tRPC batch may carry: the server refuses larger batches, the dashboard's link never sends one. */
export const MAX_TRPC_BATCH_SIZE = 10;

/**
 * The procedures the dashboard sends alone, never in a batch: those marked `batch: false` on the server
 * (the calls a signed-out caller or any new account reaches, each limited per client, and the
 * expensive admin calls limited per organisation), which refuses a batch holding one. A test keeps this
 * list equal to the server's.
 */
export const UNBATCHED_PROCEDURES: ReadonlySet<string> = new Set([
  "accounts.signUp",
  "accounts.requestPasswordReset",
  "accounts.resetPassword",
  "accounts.verifyEmail",
  "accounts.resendVerification",
  "invitations.get",
  "invitations.accept",
  "deliveries.retryMany",
  "webhooks.sendTest",
]);
