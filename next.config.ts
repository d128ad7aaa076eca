import type { NextConfig } from "next";
import { PATH_HEADERS } from "./src/server/http/security-headers";

const nextConfig: NextConfig = {
  // WASM and native-adjacent packages must be loaded by Node, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
  // Dashboard pages get their security headers from src/proxy.ts (a nonce per request). Everything
  // is served with nosniff; the API, which renders nothing, also with a no-content CSP.
  async headers() {
    return PATH_HEADERS.map(({ prefix, headers }) => ({
      source: `${prefix}:path*`,
      headers: Object.entries(headers).map(([key, value]) => ({ key, value })),
    }));
  },
};

export default nextConfig;
