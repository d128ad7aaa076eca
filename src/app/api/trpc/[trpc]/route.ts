import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import { cookies } from "next/headers";
import { ACTIVE_ORGANIZATION_COOKIE, appServices, createSessionContext } from "@/server/api/context";
import { appRouter } from "@/server/api/root";
import { sessionToken } from "@/server/auth/session";

const handler = (req: Request) =>
  fetchRequestHandler({
    endpoint: "/api/trpc",
    req,
    router: appRouter,
    createContext: async () =>
      createSessionContext(
        await appServices(),
        req.headers,
        await sessionToken(),
        (await cookies()).get(ACTIVE_ORGANIZATION_COOKIE)?.value ?? null,
      ),
    // Dashboard responses carry secrets (new keys, rotated secrets) and private data: never cached.
    responseMeta: () => ({ headers: { "cache-control": "no-store" } }),
    onError: ({ error, path }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(`[trpc] ${path} failed:`, error.cause ?? error);
    },
  });

export { handler as GET, handler as POST };
