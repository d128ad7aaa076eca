#!/usr/bin/env node
// Fails when prisma/schema.prisma and the committed migrations disagree, i.e. when someone changed the
// schema without creating a migration (or edited a migration by hand).
//
//   node scripts/db-check.mjs [--schema <path>] [--migrations <dir>]
//
// It runs `prisma migrate diff --from-migrations <dir> --to-schema <path> --exit-code`. Replaying the
// migrations needs a shadow database: DATABASE_URL=memory: makes the schema engine shim
// (prisma/engine/schema-engine.mjs) use an in-memory PGlite, so no server and no data folder is touched.
// Exit codes: 0 agree, 1 disagree or the check could not run.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(import.meta.url);

function parseArgs(args) {
  const options = {
    schema: path.join(root, "prisma/schema.prisma"),
    migrations: path.join(root, "prisma/migrations"),
  };
  for (let i = 0; i < args.length; i++) {
    const name = args[i];
    const value = args[i + 1];
    if ((name === "--schema" || name === "--migrations") && value) {
      options[name.slice(2)] = path.resolve(value);
      i++;
    } else {
      fail(`Unknown argument: ${name}\nUsage: node scripts/db-check.mjs [--schema <path>] [--migrations <dir>]`);
    }
  }
  return options;
}

function fail(message) {
  console.error(`db:check: ${message}`);
  process.exit(1);
}

const { schema, migrations } = parseArgs(process.argv.slice(2));
if (!existsSync(schema)) fail(`schema not found: ${schema}`);
if (!existsSync(path.join(migrations, "migration_lock.toml"))) {
  fail(`no migrations at ${migrations} (migration_lock.toml is missing); create one with \`npx prisma migrate dev --name init\``);
}

const cli = path.join(path.dirname(require.resolve("prisma/package.json")), "build/index.js");
const result = spawnSync(
  process.execPath,
  [
    cli,
    "migrate",
    "diff",
    "--config",
    path.join(root, "prisma.config.ts"),
    "--from-migrations",
    migrations,
    "--to-schema",
    schema,
    "--exit-code",
  ],
  {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, DATABASE_URL: "memory:", PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    timeout: 120_000,
  },
);

const output = `${result.stdout ?? ""}${result.stderr ?? ""}`
  .split("\n")
  .filter((line) => !line.startsWith("Loaded Prisma config"))
  .join("\n")
  .trim();
const where = `${path.relative(process.cwd(), schema) || schema} and ${path.relative(process.cwd(), migrations) || migrations}`;

if (result.status === 0) {
  console.log(`db:check: ${where} agree.`);
  process.exit(0);
}
if (result.status === 2) {
  console.error(
    `db:check: ${where} disagree. Applying the migrations does not give the schema; the difference, from migrations to schema:\n\n${output}\n\n` +
      "Create a migration for the change with `npx prisma migrate dev --name <what-changed>` (or fix the edited migration).",
  );
  process.exit(1);
}
fail(
  `could not compare ${where} (prisma migrate diff ${result.error ? `failed to start: ${result.error.message}` : `exited with ${result.status ?? result.signal}`}):\n${output}`,
);
