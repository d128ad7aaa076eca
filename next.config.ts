import type { NextConfig } from "next";
import { API_CONTENT_SECURITY_POLICY } from "./src/server/http/security-headers";

const nextConfig: NextConfig = {
  // WASM and native-adjacent packages must be loaded by Node, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
  // Dashboard pages get their security headers from src/proxy.ts (a nonce per request). Everything
  // is served with nosniff; the API, which renders nothing, also with a no-content CSP.
  async headers() {
    return [
      { source: "/:path*", headers: [{ key: "X-Content-Type-Options", value: "nosniff" }] },
      { source: "/api/:path*", headers: [{ key: "Content-Security-Policy", value: API_CONTENT_SECURITY_POLICY }] },
    ];
  },
};

export default nextConfig;
