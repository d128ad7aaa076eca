import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/server/db/client";
import { endSession } from "@/server/domain/sessions/end-sessions";
import { SESSION_MAX_AGE_SECONDS } from "@/server/domain/sessions/session-lifetime";
import { signInWithPassword } from "@/server/domain/sessions/sign-in";
import { getConfig } from "@/server/config";
import { instanceSecret } from "@/server/instance-secret";
import { appRateLimiter } from "@/server/rate-limit/app-rate-limiter";
import { currentSignInExchange, guardSignIn, SignInRefused, type SignInGuard } from "./sign-in-guard";
import { logger } from "@/server/observability/logger";

const header = (headers: Record<string, unknown> | undefined, name: string) => {
  const value = headers?.[name];
  return typeof value === "string" ? value : null;
};

/**
 * next-auth with e-mail and password. The cookie is a signed, encrypted JWT naming a server-side
 * session row (`sid`); every request checks that row (src/server/api/trpc/context.ts), so deleting it ends
 * the session wherever the cookie was copied to.
 */
export function authOptions(): NextAuthOptions {
  return {
    secret: instanceSecret("authSecret"),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    // Secure (and `__Secure-`/`__Host-` names) unless REFERLOOP_ALLOW_INSECURE_COOKIES, whatever NEXTAUTH_URL says: next-auth
    // would otherwise decide from NEXTAUTH_URL's scheme, or leave the cookie plain when it is unset.
    useSecureCookies: getConfig().secureCookies,
    pages: { signIn: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials, req) {
          if (!credentials?.email || !credentials.password) return null;
          const { email, password } = credentials;
          const exchange = currentSignInExchange();
          const ip = exchange?.ip ?? null;
          const guard: SignInGuard = {
            limiter: appRateLimiter(getConfig()),
            config: getConfig(),
            ip,
            record: (outcome) => exchange?.outcomes.push(outcome),
          };
          try {
            // The limits first: a refused attempt checks no password and writes no audit entry.
            const signedIn = await guardSignIn(guard, email, async () =>
              signInWithPassword(await getDb(), { email, password, userAgent: header(req?.headers, "user-agent"), ipAddress: ip }),
            );
            return signedIn ? { ...signedIn.user, sessionId: signedIn.sessionId } : null;
          } catch (error) {
            if (error instanceof SignInRefused && exchange) exchange.refused = error;
            throw error;
          }
        },
      }),
    ],
    // Without NEXTAUTH_URL next-auth uses the request's own origin, which is what the embedded default wants.
    logger: {
      warn: (code) => {
        if (code !== "NEXTAUTH_URL") logger().warn({ code }, "next-auth warning");
      },
      error: (code, metadata) => logger().error({ code, err: metadata }, "next-auth error"),
      debug: () => {},
    },
    callbacks: {
      // `user` is there only at sign-in: the new session's id goes into the token, and stays.
      jwt: ({ token, user }) => (user ? { ...token, sid: (user as { sessionId?: string }).sessionId } : token),
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub }, sessionId: token.sid }),
    },
    events: {
      // Sign-out deletes the server-side session: a copy of the cookie no longer counts.
      signOut: async ({ token }) => {
        if (token?.sub && typeof token.sid === "string") await endSession(await getDb(), token.sub, token.sid, currentSignInExchange()?.ip ?? null);
      },
    },
  };
}
