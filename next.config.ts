import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // WASM and native-adjacent packages must be loaded by Node, not bundled.
  serverExternalPackages: ["@electric-sql/pglite", "pglite-prisma-adapter", "@prisma/adapter-pg", "pg"],
  poweredByHeader: false,
};

export default nextConfig;
