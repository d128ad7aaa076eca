import type { TestProject } from "vitest/node";
import { applyMigrations } from "@/server/db/migrate";
import { adminQuery, adminUrl, databaseUrl, withClient } from "./db";

/**
 * Migrates one template database per run; each test file then copies it (CREATE DATABASE ... TEMPLATE),
 * which takes milliseconds. The template is named per run so concurrent runs on one server never
 * touch each other's. Without a reachable PostgreSQL the suite runs on in-memory PGlite and says so.
 */
export default async function setup(project: TestProject) {
  try {
    await adminQuery("SELECT 1");
  } catch {
    console.warn("\n[tests] PostgreSQL is not reachable at " + adminUrl() + ": running on embedded PGlite instead.\n");
    project.provide("templateDatabase", null);
    return;
  }
  const template = `referloop_template_${process.pid}_${Date.now().toString(36)}`;
  await adminQuery(`CREATE DATABASE "${template}"`);
  await withClient(databaseUrl(template), (client) => applyMigrations(client));
  project.provide("templateDatabase", template);
  return async () => {
    await adminQuery(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  };
}

declare module "vitest" {
  export interface ProvidedContext {
    /** The migrated template to copy, or null to run on embedded PGlite. */
    templateDatabase: string | null;
  }
}
