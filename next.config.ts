import type { NextConfig } from "next";

/**
 * Served through the front door (src/server.ts), which sets the request id and the headers every path
 * carries (src/server/http/security-headers.ts) before Next.js sees a request; dashboard pages get the
 * rest from src/proxy.ts.
 */
const nextConfig: NextConfig = {
  // WASM and native-adjacent packages must be loaded by Node, not bundled; pino and prom-client too,
  // so that the server's modules and Next.js's bundle share one logger destination and one registry.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg", "pino", "pino-pretty", "prom-client"],
  poweredByHeader: false,
  // `npm test` type-checks the same program in its typecheck step (tsc --noEmit after `next typegen`,
  // which also reports what Next's pass ignores in test files) and sets this for the build of that run,
  // which then skips its second pass (20 to 50 s on 2 cores). `npm run build` checks types as usual.
  typescript: { ignoreBuildErrors: process.env.REFERLOOP_BUILD_TYPES_CHECKED === "1" },
  // `npm test` builds once in a fresh checkout on CI, so it sets REFERLOOP_BUILD_CACHE=0: writing
  // Turbopack's cache for a later build nobody runs took about 10 s of a 45 s build.
  experimental: { turbopackFileSystemCacheForBuild: process.env.REFERLOOP_BUILD_CACHE !== "0" },
};

export default nextConfig;
