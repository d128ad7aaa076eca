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
};

export default nextConfig;
