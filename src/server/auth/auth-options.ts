import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getDb } from "@/server/db/client";
import { verifyCredentials } from "@/server/domain/accounts/verify-credentials";
import { getConfig } from "@/server/config";
import { instanceSecret } from "@/server/instance-secret";
import { appRateLimiter } from "@/server/rate-limit/app-rate-limiter";
import { currentSignInExchange, guardSignIn, SignInRefused, type SignInGuard } from "./sign-in-guard";

/** next-auth with e-mail and password; sessions are signed JWT cookies. */
export function authOptions(): NextAuthOptions {
  return {
    secret: instanceSecret("authSecret"),
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    // Secure (and `__Secure-`/`__Host-` names) in production mode, whatever NEXTAUTH_URL says: next-auth
    // would otherwise decide from NEXTAUTH_URL's scheme, or leave the cookie plain when it is unset.
    useSecureCookies: getConfig().secureCookies,
    pages: { signIn: "/sign-in" },
    providers: [
      CredentialsProvider({
        name: "E-mail and password",
        credentials: { email: { label: "E-mail", type: "email" }, password: { label: "Password", type: "password" } },
        async authorize(credentials) {
          if (!credentials?.email || !credentials.password) return null;
          const { email, password } = credentials;
          const exchange = currentSignInExchange();
          const guard: SignInGuard = {
            limiter: appRateLimiter(getConfig()),
            config: getConfig(),
            ip: exchange?.ip ?? null,
            record: (outcome) => exchange?.outcomes.push(outcome),
          };
          try {
            const user = await guardSignIn(guard, email, async () => verifyCredentials(await getDb(), email, password));
            return user ? { id: user.id, email: user.email, name: user.name } : null;
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
        if (code !== "NEXTAUTH_URL") console.warn(`[next-auth] ${code}`);
      },
      error: (code, metadata) => console.error(`[next-auth] ${code}`, metadata),
      debug: () => {},
    },
    callbacks: {
      session: ({ session, token }) => ({ ...session, user: { ...session.user, id: token.sub } }),
    },
  };
}
