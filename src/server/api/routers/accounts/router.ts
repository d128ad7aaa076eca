import { router } from "@/server/api/trpc/procedures";
import { changePasswordProcedure } from "./change-password";
import { getMeProcedure } from "./get-me";
import { listSessionsProcedure } from "./list-sessions";
import { requestPasswordResetProcedure } from "./request-password-reset";
import { resendVerificationProcedure } from "./resend-verification";
import { resetPasswordProcedure } from "./reset-password";
import { revokeSessionProcedure } from "./revoke-session";
import { signOutEverywhereProcedure } from "./sign-out-everywhere";
import { signUpProcedure } from "./sign-up";
import { verifyEmailProcedure } from "./verify-email";

// Dashboard only: accounts have no REST surface.
export const accountsRouter = router({
  signUp: signUpProcedure,
  me: getMeProcedure,
  verifyEmail: verifyEmailProcedure,
  resendVerification: resendVerificationProcedure,
  changePassword: changePasswordProcedure,
  requestPasswordReset: requestPasswordResetProcedure,
  resetPassword: resetPasswordProcedure,
  sessions: listSessionsProcedure,
  revokeSession: revokeSessionProcedure,
  signOutEverywhere: signOutEverywhereProcedure,
});
