import path from "node:path";
import { defineConfig } from "prisma/config";

// The CLI would otherwise download a native schema engine, which fails offline. The shim runs the same
// engine as WebAssembly through driver adapters (see prisma/engine/schema-engine.mjs). The CLI reads
// this variable after loading the config, and its engine child inherits it. An explicit value wins,
// e.g. a native binary on a machine that has one.
process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= path.resolve(import.meta.dirname, "prisma/engine/schema-engine.mjs");

// Without DATABASE_URL the app uses the embedded PGlite database in <REFERLOOP_DATA_DIR or .data>/pglite,
// and so does the CLI (a `file:` URL is how the shim recognises it). PGlite allows one process per
// folder: stop the app before running migrate commands against that folder.
const dataDir = path.resolve(process.env.REFERLOOP_DATA_DIR ?? ".data"); // relative to cwd, as in src/server/config.ts
const url = process.env.DATABASE_URL || `file:${path.join(dataDir, "pglite")}`;

export default defineConfig({
  schema: "prisma/schema.prisma",
  migrations: { path: "prisma/migrations" },
  datasource: { url, ...(process.env.SHADOW_DATABASE_URL ? { shadowDatabaseUrl: process.env.SHADOW_DATABASE_URL } : {}) },
});
